package dev.capability.kernel.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** An attestation written as JSON reads back as the same attestation, however the JSON is spelled. */
class AttestationJsonProperties {
  private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Property(tries = 300)
  void anAttestationReadBackFromItsCanonicalJsonIsTheSameAttestation(@ForAll("attestations") Attestation attestation) {
    String json = CanonicalJson.serialize(AttestationJson.toMap(attestation));

    Attestation read = AttestationJson.fromJson(json);

    assertThat(read).isEqualTo(attestation);
    assertThat(CanonicalJson.serialize(AttestationJson.toMap(read))).isEqualTo(json);
  }

  @Property(tries = 200)
  void memberOrderAndWhitespaceOfTheJsonDoNotMatter(@ForAll("attestations") Attestation attestation, @ForAll long seed) throws Exception {
    String rewritten = PRETTY.writeValueAsString(shuffled(AttestationJson.toMap(attestation), new Random(seed)));

    assertThat(AttestationJson.fromJson(rewritten)).isEqualTo(attestation);
  }

  private static Object shuffled(Object value, Random random) {
    if (value instanceof Map<?, ?> map) {
      List<Object> keys = new ArrayList<>(map.keySet());
      Collections.shuffle(keys, random);
      Map<Object, Object> copy = new LinkedHashMap<>();
      keys.forEach(key -> copy.put(key, shuffled(map.get(key), random)));
      return copy;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(element -> shuffled(element, random)).toList();
    }
    return value;
  }

  @Provide
  Arbitrary<Attestation> attestations() {
    Arbitrary<Attestation.Builder> identity = Combinators.combine(
            texts(), Arbitraries.of(ExecutionStatus.class), texts().list().ofMaxSize(4), hex(), decisions(), hex(), texts())
        .as((version, status, argv, spec, decision, policy, source) -> Attestation.builder()
            .kernelVersion(version).status(status).argv(argv).commandSpecHash(spec).decision(decision).policyHash(policy)
            .policySource(source));
    Arbitrary<Attestation.Builder> launch = Combinators.combine(
            identity, executables().injectNull(0.3), backends().injectNull(0.3), environments(),
            Arbitraries.of(NetworkMode.class), Arbitraries.of(ProjectWriteMode.class), boundaries())
        .as((builder, executable, backend, environment, network, writes, bounds) -> builder
            .executable(executable).backend(backend).environment(environment).network(network).projectWrites(writes)
            .writeBoundaries(bounds));
    Arbitrary<Attestation.Builder> audit = Combinators.combine(
            launch, texts().list().ofMaxSize(3), Arbitraries.maps(texts(), texts()).ofMaxSize(3), texts().list().ofMaxSize(3),
            texts().list().ofMaxSize(3), changes().list().ofMaxSize(3), violations().list().ofMaxSize(2), secrets())
        .as((builder, roots, tools, neutralization, files, changes, violations, secrets) -> builder
            .createdScopeRoots(roots).toolConfiguration(tools).neutralization(neutralization).filesProduced(files)
            .changes(changes).violations(violations).secrets(secrets));
    Arbitrary<Attestation.Builder> egress = Combinators.combine(audit, egress().list().ofMaxSize(3))
        .as((builder, connections) -> builder.egress(connections));
    return Combinators.combine(
            egress, hex().injectNull(0.5), streams(), streams(), instants(), instants(), Arbitraries.of(true, false),
            Arbitraries.of(true, false))
        .as((builder, tree, stdout, stderr, started, finished, timedOut, limit) -> builder
            .inputTreeHash(tree).stdout(stdout).stderr(stderr).startedAt(started).finishedAt(finished).timedOut(timedOut)
            .outputLimitHit(limit))
        .flatMap(builder -> Arbitraries.integers().injectNull(0.3).map(exit -> builder.exitCode(exit)))
        .flatMap(builder -> workspaces().injectNull(0.5).map(workspace -> builder.workspace(workspace).build()));
  }

  private static Arbitrary<Attestation.Workspace> workspaces() {
    Arbitrary<Long> counts = Arbitraries.longs().between(0, 1L << 53);
    return Combinators.combine(counts, counts, hex(), counts, Arbitraries.of("APPLIED", "WORKSPACE_RETURN_TRAVERSAL", "WORKSPACE_NOT_RETURNED"))
        .as(Attestation.Workspace::new);
  }

  private static Arbitrary<Attestation.DecisionSummary> decisions() {
    return Combinators.combine(Arbitraries.of(true, false), texts().injectNull(0.2), texts(), texts(),
            Arbitraries.integers().between(0, 100).injectNull(0.5))
        .as(Attestation.DecisionSummary::new);
  }

  private static Arbitrary<Attestation.Executable> executables() {
    return Combinators.combine(texts(), hex(), Arbitraries.of(PinnedExecutable.Pinning.class))
        .as((path, sha, pinning) -> new Attestation.Executable("/" + path, sha, pinning));
  }

  private static Arbitrary<Attestation.Backend> backends() {
    return Combinators.combine(
            texts(), Arbitraries.of(IsolationCapability.class).set().ofMaxSize(4), Arbitraries.of(Attestation.Backend.Choice.class),
            texts(), Arbitraries.maps(texts(), texts()).ofMaxSize(2))
        .as((id, capabilities, choice, reason, versions) -> new Attestation.Backend(id, Set.copyOf(capabilities), choice, reason, versions));
  }

  private static Arbitrary<Attestation.Environment> environments() {
    Arbitrary<List<String>> names = texts().list().ofMaxSize(3).map(list -> list.stream().sorted().toList());
    return Combinators.combine(names, names, names, names).as(Attestation.Environment::new);
  }

  private static Arbitrary<Attestation.WriteBoundaries> boundaries() {
    Arbitrary<List<String>> patterns = texts().list().ofMaxSize(2).injectNull(0.4);
    return Combinators.combine(patterns, patterns, patterns, patterns).as(Attestation.WriteBoundaries::new);
  }

  private static Arbitrary<Attestation.Change> changes() {
    return Combinators.combine(texts(), Arbitraries.of("CREATED", "MODIFIED", "DELETED"), Arbitraries.of("FILE", "SYMLINK"),
            Arbitraries.of(true, false))
        .as(Attestation.Change::new);
  }

  private static Arbitrary<Attestation.Violation> violations() {
    return Combinators.combine(texts(), texts(), texts(), texts(), texts()).as(Attestation.Violation::new);
  }

  private static Arbitrary<EgressConnection> egress() {
    Arbitrary<Long> bytes = Arbitraries.longs().between(0, 1L << 53);
    return Combinators.combine(
            Arbitraries.of("http", "connect", "socks5"), texts(), Arbitraries.integers().between(0, 65535),
            Arbitraries.of(EgressConnection.Outcome.class), texts(), texts().injectNull(0.4), bytes, bytes)
        .as((protocol, host, port, outcome, reason, address, sent, received) -> new EgressConnection(
            protocol, host, port, outcome, outcome == EgressConnection.Outcome.ALLOWED ? null : reason, address, sent, received));
  }

  private static Arbitrary<Attestation.SecretScan> secrets() {
    Arbitrary<Attestation.SecretFinding> findings =
        Combinators.combine(texts(), texts(), Arbitraries.integers().between(0, Integer.MAX_VALUE)).as(Attestation.SecretFinding::new);
    Arbitrary<Attestation.ScanGap> gaps = Combinators.combine(texts(), texts()).as(Attestation.ScanGap::new);
    return Combinators.combine(findings.list().ofMaxSize(2), gaps.list().ofMaxSize(2)).as(Attestation.SecretScan::new);
  }

  private static Arbitrary<Attestation.Stream> streams() {
    // Byte counts up to 2^53: canonical JSON numbers are doubles, and larger counts are not written exactly.
    return Combinators.combine(hex(), Arbitraries.longs().between(0, 1L << 53), Arbitraries.of(true, false)).as(Attestation.Stream::new);
  }

  private static Arbitrary<Instant> instants() {
    return Combinators.combine(Arbitraries.longs().between(0, 4_000_000_000L), Arbitraries.integers().between(0, 999_999_999))
        .as(Instant::ofEpochSecond);
  }

  private static Arbitrary<String> hex() {
    return Arbitraries.strings().withChars("0123456789abcdef").ofLength(64);
  }

  private static Arbitrary<String> texts() {
    // Well-formed UTF-16: canonical JSON refuses a lone surrogate.
    return Arbitraries.strings().withCharRange('\u0000', '\ud7ff').withCharRange('\ue000', '\uffff').ofMaxLength(6);
  }
}
