package dev.capability.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.store.Stored;
import dev.capability.kernel.api.store.WorkPlanRecord;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.workflow.internal.PlanValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Histogram;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

/**
 * Arbitrary plan documents and patches, valid and not: saving and amending either store a plan
 * that passes every check when read back, or refuse with a coded {@link WorkflowException} and
 * store nothing. Nothing else is ever thrown.
 */
class PlanProperties {
  private static Path home;
  private static Path repository;
  private static CommandKernel kernel;

  @BeforeContainer
  static void setUp() throws IOException {
    home = Files.createTempDirectory("plan-properties");
    repository = JavaProject.create(home.resolve("repo"), home);
    kernel = Fixtures.decidingKernel();
  }

  @AfterContainer
  static void tearDown() throws IOException {
    kernel.close();
    try (var paths = Files.walk(home)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private static final List<String> COMMANDS = List.of(
      JavaProject.COMPILE_MAIN, JavaProject.COMPILE_TEST, JavaProject.RUN_TEST, "echo done", "cat README.md", "grep -q add src/Calc.java",
      "true", "javac -d target/classes src/main/java/Calc.java | cat", "echo $(id)", "rm -rf /", "", "java -version", "cat README.md > x",
      "grep -q 'a b' README.md", "echo \"unterminated");
  private static final List<String> SCOPES = List.of(
      "src/**", "src/main/**", "src/test/**", "target/**", "docs/**", "**", "../x", "/abs", "src/*.java", "{a,b}", "src/**/.*", "");

  @Provide
  Arbitrary<Object> values() {
    return Arbitraries.oneOf(
        Arbitraries.of(COMMANDS).map(Object.class::cast),
        Arbitraries.of(SCOPES).map(Object.class::cast),
        Arbitraries.of("impl", "tests", "code", "non-code", "calc", "x y").map(Object.class::cast),
        Arbitraries.integers().between(-1, 3).map(Object.class::cast),
        Arbitraries.of(true, false).map(Object.class::cast),
        Arbitraries.of(COMMANDS).list().ofMaxSize(3).map(Object.class::cast),
        Arbitraries.of(SCOPES).list().ofMaxSize(3).map(Object.class::cast),
        Arbitraries.just(Map.of()).map(Object.class::cast));
  }

  @Provide
  Arbitrary<Map<String, Object>> phases() {
    return Combinators.combine(
            Arbitraries.of("impl", "tests", "docs", "impl"),
            Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.of(List.of("src/main/**"), List.of("src/**", "target/**"), List.of("src/test/**"))),
                net.jqwik.api.Tuple.of(1, Arbitraries.of(SCOPES).list().ofMinSize(0).ofMaxSize(3).uniqueElements())),
            Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.of(List.of(JavaProject.COMPILE_MAIN), List.of("cat README.md"), List.of(JavaProject.RUN_TEST))),
                net.jqwik.api.Tuple.of(1, Arbitraries.of(COMMANDS).list().ofMinSize(0).ofMaxSize(3).uniqueElements())),
            Arbitraries.of("code", "non-code", "code", "non-code", "prose"),
            Arbitraries.of(List.<String>of(), List.<String>of(), List.of("impl"), List.of("nothing")),
            values().optional())
        .as((id, scopes, acceptance, kind, dependsOn, extra) -> {
          Map<String, Object> phase = new LinkedHashMap<>();
          phase.put("id", id);
          phase.put("goal", "goal of " + id);
          phase.put("writeScopes", scopes);
          phase.put("acceptance", acceptance);
          phase.put("verificationKind", kind);
          phase.put("dependsOn", dependsOn);
          extra.filter(value -> !(value instanceof Map)).ifPresent(value -> phase.put("fullSuite", value));
          return phase;
        });
  }

  @Provide
  Arbitrary<String> plans() {
    Arbitrary<String> structured = Combinators.combine(
            Arbitraries.of(1, 1, 1, 2), Arbitraries.of("calc", "calc", "-bad"), phases().list().ofMinSize(0).ofMaxSize(3))
        .as((version, id, phases) -> {
          Map<String, Object> plan = new LinkedHashMap<>();
          plan.put("version", version);
          plan.put("id", id);
          plan.put("phases", phases);
          return CanonicalJson.serialize(plan);
        });
    Arbitrary<String> text = Arbitraries.strings().withChars("{}[]\":,0123456789abcdefghijklmnopqrstuvwxyz /*|$").ofMaxLength(60);
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, structured), net.jqwik.api.Tuple.of(1, text));
  }

  @Provide
  Arbitrary<String> patches() {
    Arbitrary<Map<String, Object>> operation = Combinators.combine(
            Arbitraries.of("add", "remove", "replace", "move", "copy", "test", "delete"),
            Arbitraries.of("/phases/0/writeScopes/-", "/phases/0/acceptance/0", "/phases/1", "/phases/-", "/phases/0/verificationKind",
                "/id", "/version", "/phases/0", "", "/phases/9/goal", "phases", "/phases/0/fullSuite", "/phases/1/dependsOn/-"),
            values(),
            Arbitraries.of("/phases/0", "/phases/1", "/title", "/nowhere"))
        .as((op, path, value, from) -> {
          Map<String, Object> map = new LinkedHashMap<>();
          map.put("op", op);
          map.put("path", path);
          if (!op.equals("remove")) {
            map.put("value", value);
          }
          if (op.equals("move") || op.equals("copy")) {
            map.put("from", from);
          }
          return map;
        });
    Arbitrary<String> structured = operation.list().ofMaxSize(3).map(CanonicalJson::serialize);
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, structured), net.jqwik.api.Tuple.of(1, Arbitraries.of("{}", "[1]", "null", "[")));
  }

  @Property(tries = 150)
  @StatisticsReport(format = Histogram.class)
  void savingStoresOnlyValidPlansAndRefusesOnlyWithACode(@ForAll("plans") String document) {
    InMemoryWorkPlanStore store = new InMemoryWorkPlanStore();
    WorkPlans plans = WorkPlans.builder(kernel, store, repository).build();
    plans.setContract(Fixtures.CONTRACT);
    int before = store.all.size();
    try {
      plans.save(document);
    } catch (WorkflowException refused) {
      assertThat(refused.code()).matches("[A-Z_]+");
      assertThat(store.all).hasSize(before);
      Statistics.collect(refused.code());
      return;
    }
    assertStoredPlansAreValid(store, plans);
    Statistics.collect("STORED");
    Statistics.coverage(coverage -> coverage.check("STORED").count(n -> n > 0));
  }

  @Property(tries = 150)
  @StatisticsReport(format = Histogram.class)
  void amendingStoresOnlyValidPlansAndRefusesOnlyWithACode(@ForAll("patches") String patch) {
    InMemoryWorkPlanStore store = new InMemoryWorkPlanStore();
    WorkPlans plans = WorkPlans.builder(kernel, store, repository).build();
    plans.setContract(Fixtures.CONTRACT);
    plans.save(Fixtures.TWO_PHASES);
    int before = store.all.size();
    try {
      plans.amend(patch);
    } catch (WorkflowException refused) {
      assertThat(refused.code()).matches("[A-Z_]+");
      assertThat(store.all).hasSize(before);
      Statistics.collect(refused.code());
      return;
    }
    assertStoredPlansAreValid(store, plans);
    Statistics.collect("STORED");
    Statistics.coverage(coverage -> coverage.check("STORED").count(n -> n > 0));
  }

  private static void assertStoredPlansAreValid(InMemoryWorkPlanStore store, WorkPlans plans) {
    ProjectContract contract = plans.contract().orElseThrow();
    List<Stored<WorkPlanRecord>> revisions = new ArrayList<>(store.workPlanRevisions());
    assertThat(revisions).isNotEmpty();
    for (Stored<WorkPlanRecord> revision : revisions) {
      WorkPlan plan = WorkPlans.readPlan(CanonicalJson.serialize(revision.record().document().get("plan")));
      new PlanValidator(kernel, repository, java.util.Optional.empty(), java.util.Optional.empty()).validate(contract, plan);
    }
  }
}
