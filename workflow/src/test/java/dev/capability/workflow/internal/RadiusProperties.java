package dev.capability.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.core.WritePaths;
import dev.capability.workflow.Assumption;
import dev.capability.workflow.CorrectionRadius;
import dev.capability.workflow.Phase;
import dev.capability.workflow.RadiusBounds;
import dev.capability.workflow.VerificationKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random assumption graphs (cycles and links to missing nodes included, which recording refuses
 * but a computation must survive): the radius is always inside the phase's scope, always within
 * the bounds, the same for the same graph whatever order it is given in, and a bound that cut it
 * short is always reported.
 */
class RadiusProperties {
  private static final List<String> PHASE_SCOPE = List.of("src/main/**");
  private static final List<String> TREE = List.of("src/main/A.java", "src/main/B.java", "src/main/x/C.java", "src/main/.hidden",
      "src/test/T.java", "docs/d.md", "pom.xml", "src/main/D.java");
  private static final List<String> LINKS = List.of("src/main/A.java", "src/main/B.java", "src/main/*.java", "src/main/**", "src/test/T.java",
      "docs/**", "pom.xml", "src/main/new/N.java", "src/**", "**/*.java", "src/main/x/C.java", "src/main/D.java", "other/O.java");

  record Graph(Map<String, Assumption> assumptions, List<Phase> phases, String root, RadiusBounds bounds, long seed) {}

  @Provide
  Arbitrary<Graph> graphs() {
    Arbitrary<Integer> sizes = Arbitraries.integers().between(1, 12);
    return sizes.flatMap(n -> {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ids.add("a" + i);
      }
      List<String> phaseIds = List.of("p0", "p1", "p2", "p3");
      Arbitrary<List<String>> dependents = Arbitraries.of(concat(ids, List.of("missing"))).list().ofMaxSize(4).uniqueElements();
      Arbitrary<List<String>> files = Arbitraries.of(LINKS).list().ofMaxSize(4).uniqueElements();
      Arbitrary<List<String>> phaseLinks = Arbitraries.of(concat(phaseIds, List.of("gone"))).list().ofMaxSize(2).uniqueElements();
      Arbitrary<Assumption> assumption = Combinators.combine(Arbitraries.of(ids), files, dependents, phaseLinks)
          .as((id, f, d, p) -> new Assumption(id, "wp", "p0", "s", List.of(), 0.5, f, p, d));
      Arbitrary<List<Assumption>> all = assumption.list().ofSize(n);
      Arbitrary<List<Phase>> phases = Combinators.combine(
              Arbitraries.of(TREE).list().ofMaxSize(2).uniqueElements().list().ofSize(4),
              Arbitraries.of(phaseIds).list().ofMaxSize(2).uniqueElements().list().ofSize(4))
          .as((deliverables, deps) -> {
            List<Phase> out = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
              out.add(new Phase(phaseIds.get(i), "g", List.of("src/**"), deliverables.get(i), VerificationKind.CODE, List.of("make test"),
                  List.of(), Optional.empty(), deps.get(i)));
            }
            return out;
          });
      Arbitrary<RadiusBounds> bounds = Combinators.combine(Arbitraries.integers().between(0, 5), Arbitraries.integers().between(1, 10))
          .as(RadiusBounds::new);
      return Combinators.combine(all, phases, Arbitraries.of(ids), bounds, Arbitraries.longs())
          .as((list, ps, root, b, seed) -> {
            Map<String, Assumption> byId = new LinkedHashMap<>();
            for (int i = 0; i < list.size(); i++) {
              Assumption a = list.get(i);
              byId.put(ids.get(i), new Assumption(ids.get(i), "wp", "p0", "s", List.of(), 0.5, a.files(), a.phases(), a.dependents()));
            }
            return new Graph(byId, ps, root, b, seed);
          });
    });
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static final Function<List<String>, Map<String, String>> OUTSIDE_PHASE = files -> {
    Map<String, String> refused = new TreeMap<>();
    for (String file : files) {
      if (PHASE_SCOPE.stream().noneMatch(scope -> WritePaths.matches(scope, file))) {
        refused.put(file, "outside the phase");
      }
    }
    return refused;
  };

  private static CorrectionRadius radius(Graph g, RadiusBounds bounds) {
    return RadiusCalculator.compute(g.assumptions().get(g.root()), g.assumptions(), g.phases(), TREE, bounds, OUTSIDE_PHASE);
  }

  @Property(tries = 300)
  void theRadiusIsInsideThePhaseAndWithinTheBounds(@ForAll("graphs") Graph g) {
    CorrectionRadius r = radius(g, g.bounds());
    assertThat(r.files()).allSatisfy(f -> assertThat(PHASE_SCOPE).anySatisfy(scope -> assertThat(WritePaths.matches(scope, f)).isTrue()));
    assertThat(r.files().size() + r.excluded().size()).isLessThanOrEqualTo(g.bounds().maxFiles());
    assertThat(r.files()).isSorted().doesNotHaveDuplicates();
    assertThat(r.reachedAssumptions()).first().isEqualTo(g.root());
  }

  @Property(tries = 300)
  void theSameGraphInAnyOrderGivesTheSameRadius(@ForAll("graphs") Graph g) {
    Random random = new Random(g.seed());
    List<String> keys = new ArrayList<>(g.assumptions().keySet());
    Collections.shuffle(keys, random);
    Map<String, Assumption> reordered = new LinkedHashMap<>();
    keys.forEach(k -> reordered.put(k, g.assumptions().get(k)));
    List<Phase> phases = new ArrayList<>(g.phases());
    Collections.shuffle(phases, random);
    List<String> tree = new ArrayList<>(TREE);
    Collections.shuffle(tree, random);
    CorrectionRadius again = RadiusCalculator.compute(reordered.get(g.root()), reordered, phases, tree, g.bounds(), OUTSIDE_PHASE);
    assertThat(again).isEqualTo(radius(g, g.bounds()));
  }

  @Property(tries = 300)
  void aRadiusCutShortByABoundSaysSo(@ForAll("graphs") Graph g) {
    CorrectionRadius bounded = radius(g, g.bounds());
    CorrectionRadius unbounded = radius(g, new RadiusBounds(64, 100_000));
    assertThat(unbounded.boundReached()).isFalse();
    assertThat(unbounded.files()).containsAll(bounded.files());
    if (!bounded.boundReached()) {
      assertThat(bounded.files()).isEqualTo(unbounded.files());
    }
  }
}
