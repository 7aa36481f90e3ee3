package dev.capability.kernel.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AttestationJsonTest {
  private static final Instant AT = Instant.parse("2026-11-30T10:00:00.123456Z");

  private static Attestation.Builder minimal() {
    return Attestation.builder()
        .kernelVersion("0.1.0")
        .status(ExecutionStatus.DENIED)
        .argv(List.of("rm", "-rf", "/"))
        .commandSpecHash("a".repeat(64))
        .decision(Decision.deny("FLAG_NOT_ALLOWED", "operator", "executables.rm.flags", 1, "no"))
        .policyHash("b".repeat(64))
        .policySource("code")
        .network(NetworkMode.NONE)
        .projectWrites(ProjectWriteMode.READ_ONLY)
        .writeBoundaries(new Attestation.WriteBoundaries(List.of(), null, null, null))
        .startedAt(AT)
        .finishedAt(AT);
  }

  private static String json(Attestation attestation) {
    return CanonicalJson.serialize(AttestationJson.toMap(attestation));
  }

  @Test
  void theBuilderFillsWhatDoesNotApply() {
    Attestation attestation = minimal().projectWrites(ProjectWriteMode.SCOPED).build();

    assertThat(attestation.network()).isEqualTo(NetworkMode.NONE);
    assertThat(attestation.projectWrites()).isEqualTo(ProjectWriteMode.SCOPED);
    assertThat(attestation.executable()).isNull();
    assertThat(attestation.exitCode()).isNull();
    assertThat(attestation.changes()).isEmpty();
    assertThat(attestation.secrets()).isEqualTo(Attestation.SecretScan.none());
    assertThat(attestation.stdout()).isEqualTo(Attestation.Stream.of(CapturedOutput.empty()));
    assertThat(attestation.decision().argIndex()).isEqualTo(1);
  }

  @Test
  void everyEnumComponentIsWrittenInItsDocumentedSpellingAndReadBackAsTheSameConstant() {
    Map<NetworkMode, String> networks = Map.of(NetworkMode.NONE, "none", NetworkMode.FILTERED, "filtered", NetworkMode.HOST, "host");
    Map<ProjectWriteMode, String> writes = Map.of(ProjectWriteMode.READ_ONLY, "read-only", ProjectWriteMode.SCOPED, "scoped");
    Map<PinnedExecutable.Pinning, String> pinnings = Map.of(PinnedExecutable.Pinning.PROC_FD, "proc_fd");
    assertThat(networks).containsOnlyKeys(NetworkMode.values());
    assertThat(writes).containsOnlyKeys(ProjectWriteMode.values());
    assertThat(pinnings).containsOnlyKeys(PinnedExecutable.Pinning.values());

    for (NetworkMode network : NetworkMode.values()) {
      for (ProjectWriteMode write : ProjectWriteMode.values()) {
        for (PinnedExecutable.Pinning pinning : PinnedExecutable.Pinning.values()) {
          Attestation attestation = minimal().network(network).projectWrites(write)
              .executable(new Attestation.Executable("/usr/bin/rm", "c".repeat(64), pinning)).build();

          String json = json(attestation);

          assertThat(json).contains("\"network\":\"" + networks.get(network) + "\"",
              "\"projectWrites\":\"" + writes.get(write) + "\"", "\"pinning\":\"" + pinnings.get(pinning) + "\"");
          assertThat(AttestationJson.fromJson(json)).isEqualTo(attestation);
        }
      }
    }
  }

  @Test
  void refusesAnEnumComponentOutsideItsValuesNamingTheMember() {
    String json = json(minimal().executable(new Attestation.Executable("/usr/bin/rm", "c".repeat(64), PinnedExecutable.Pinning.PROC_FD)).build());

    assertInvalid(json.replace("\"network\":\"none\"", "\"network\":\"NONE\""), "JSON pointer \"/network\" must be one of [none, filtered, host]");
    assertInvalid(json.replace("\"network\":\"none\"", "\"network\":7"), "JSON pointer \"/network\" must be a string");
    assertInvalid(json.replace("\"projectWrites\":\"read-only\"", "\"projectWrites\":\"read_only\""),
        "JSON pointer \"/projectWrites\" must be one of [read-only, scoped]");
    assertInvalid(json.replace("\"projectWrites\":\"read-only\"", "\"projectWrites\":null"), "JSON pointer \"/projectWrites\" must be a string");
    assertInvalid(json.replace("\"pinning\":\"proc_fd\"", "\"pinning\":\"path\""), "JSON pointer \"/executable/pinning\" must be one of [proc_fd]");
    assertInvalid(json.replace("\"pinning\":\"proc_fd\"", "\"pinning\":\"PROC_FD\""), "JSON pointer \"/executable/pinning\" must be one of [proc_fd]");
  }

  @Test
  void theBuilderRefusesAnAttestationWithoutARequiredField() {
    assertThatThrownBy(() -> minimal().policyHash(null).build()).isInstanceOf(NullPointerException.class).hasMessage("policyHash");
    assertThatThrownBy(() -> minimal().network(null).build()).isInstanceOf(NullPointerException.class).hasMessage("network");
  }

  @Test
  void readsBackAnAttestationWithABackendAndAnExecutable() {
    Attestation attestation = minimal()
        .status(ExecutionStatus.COMPLETED)
        .decision(Decision.allow("operator", "executables.rm"))
        .executable(new Attestation.Executable("/usr/bin/rm", "c".repeat(64), PinnedExecutable.Pinning.PROC_FD))
        .backend(new Attestation.Backend("bwrap", Set.of(), Attestation.Backend.Choice.STRONGEST_SANDBOX, "strongest"))
        .exitCode(0)
        .build();

    assertThat(AttestationJson.fromJson(json(attestation))).isEqualTo(attestation);
  }

  @Test
  void refusesJsonThatIsNotAnAttestationNamingWhere() {
    String json = json(minimal().build());

    assertInvalid("[]", "the attestation must be an object");
    assertInvalid(json.replace("\"policyHash\":", "\"policyHsh\":"), "the attestation has no member 'policyHash'");
    assertInvalid(json.replaceFirst("\\{", "{\"extra\":1,"), "\"/extra\" is not a member of an attestation");
    assertInvalid(json.replace("\"network\":\"none\"", "\"network\":\"bridge\""), "\"/network\" must be one of [none, filtered, host]");
    assertInvalid(json.replace("\"projectWrites\":\"read-only\"", "\"projectWrites\":\"none\""), "\"/projectWrites\" must be one of [read-only, scoped]");
    assertInvalid(json.replace("\"status\":\"DENIED\"", "\"status\":\"DONE\""), "\"/status\" must be one of");
    assertInvalid(json.replace("\"argv\":[\"rm\"", "\"argv\":[7"), "\"/argv/0\" must be a string");
    assertInvalid(json.replace("\"bytes\":0", "\"bytes\":-1"), "\"/stdout/bytes\" must be between 0 and");
    assertInvalid(json.replace("\"bytes\":0", "\"bytes\":0.5"), "\"/stdout/bytes\" must be an integer");
    assertInvalid(json.replace("\"startedAt\":\"2026-11-30T10:00:00.123456Z\"", "\"startedAt\":\"yesterday\""), "\"/startedAt\" must be an ISO-8601 instant");
    assertInvalid(json.replace("\"exitCode\":null", "\"exitCode\":4294967296"), "\"/exitCode\" must be between");
    assertInvalid(json.replace("\"timedOut\":false", "\"timedOut\":\"false\""), "\"/timedOut\" must be true or false");
    assertInvalid(json.replace("\"kernelVersion\":\"0.1.0\"", "\"kernelVersion\":\"0.1.0\",\"kernelVersion\":\"9\""), "duplicate member name \"kernelVersion\"");
    assertInvalid(json + "{}", "content after the JSON value");
    assertInvalid(json.replace("\"code\"", "'code'"), "not JSON");
    assertInvalid("[".repeat(100), "nest deeper than 16 levels");
  }

  @Test
  void writesAndReadsBackEveryEgressConnectionOfAFilteredRun() {
    Attestation attestation = minimal()
        .network(NetworkMode.FILTERED)
        .egress(List.of(
            new EgressConnection("connect", "git.test", 8080, EgressConnection.Outcome.ALLOWED, null, "127.0.0.1", 120, 4096),
            new EgressConnection("http", "other.test", 8080, EgressConnection.Outcome.REFUSED, EgressRefusal.NOT_GRANTED, null, 0, 0),
            new EgressConnection("socks5", "::1", 22, EgressConnection.Outcome.FAILED, EgressRefusal.CONNECT_FAILED, "::1", 0, 0)))
        .build();

    String json = json(attestation);

    assertThat(json).contains("\"egress\":[{\"address\":\"127.0.0.1\",\"bytesReceived\":4096,\"bytesSent\":120,\"host\":\"git.test\","
        + "\"outcome\":\"allowed\",\"port\":8080,\"protocol\":\"connect\",\"reason\":null}",
        "\"outcome\":\"refused\"", "\"outcome\":\"failed\"", "\"reason\":\"EGRESS_NOT_GRANTED\"");
    assertThat(AttestationJson.fromJson(json)).isEqualTo(attestation);
  }

  @Test
  void writesEgressForFilteredNetworkEvenWithoutConnectionsAndLeavesItOutOtherwise() {
    assertThat(json(minimal().network(NetworkMode.FILTERED).build())).contains("\"egress\":[]");
    assertThat(json(minimal().network(NetworkMode.HOST).build())).doesNotContain("egress");
    assertThat(AttestationJson.fromJson(json(minimal().build())).egress()).isEmpty();
  }

  @Test
  void refusesAnEgressConnectionThatIsNotOneNamingWhere() {
    String json = json(minimal().network(NetworkMode.FILTERED)
        .egress(List.of(new EgressConnection("http", "other.test", 80, EgressConnection.Outcome.REFUSED, EgressRefusal.NOT_GRANTED, null, 0, 0)))
        .build());

    assertInvalid(json.replace("\"outcome\":\"refused\"", "\"outcome\":\"REFUSED\""),
        "\"/egress/0/outcome\" must be one of [allowed, refused, failed]");
    assertInvalid(json.replace("\"outcome\":\"refused\"", "\"outcome\":\"allowed\""),
        "\"/egress/0/reason\" must be null exactly when the outcome is allowed");
    assertInvalid(json.replace("\"port\":80", "\"port\":65536"), "\"/egress/0/port\" must be between 0 and 65535");
    assertInvalid(json.replace("\"bytesSent\":0", "\"bytesSent\":-1"), "\"/egress/0/bytesSent\" must be between 0 and");
    assertInvalid(json.replace("\"host\":\"other.test\"", "\"host\":\"other.test\",\"user\":\"x\""),
        "\"/egress/0/user\" is not a member of an attestation");
    assertInvalid(json.replace("\"address\":null,", ""), "\"/egress/0\" has no member 'address'");
    assertInvalid(json.replace("\"egress\":[", "\"egress\":[7,"), "\"/egress/0\" must be an object");
    assertInvalid(json.replace("\"egress\":[", "\"egress\":{\"a\":").replace("}],\"environment\"", "}},\"environment\""),
        "\"/egress\" must be an array");
  }

  private static void assertInvalid(String json, String message) {
    assertThatThrownBy(() -> AttestationJson.fromJson(json))
        .as(json)
        .isInstanceOfSatisfying(CapabilityException.class, e -> {
          assertThat(e.code()).isEqualTo(AttestationJson.ATTESTATION_INVALID);
          assertThat(e.getMessage()).contains(message);
        });
  }
}
