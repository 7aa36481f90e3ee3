package dev.capability.backend.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.support.SandboxSyscallPolicy;
import dev.capability.backend.support.SandboxSyscallPolicy.DeniedSyscall;
import dev.capability.kernel.api.NetworkMode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * The probe run on this machine without any filter of the project's: every attempt must end with
 * an error other than the one the policy returns, or a denial inside a sandbox would prove nothing.
 */
class SyscallProbeTest {

  @Test
  void withoutAFilterNoAttemptEndsWithThePolicysError(TestReporter reporter) throws Exception {
    String capEff = statusField("CapEff");
    Map<String, Integer> expectedNot = new LinkedHashMap<>();
    List<String> unjudged = new ArrayList<>();
    for (DeniedSyscall denied : SandboxSyscallPolicy.deniedSyscalls()) {
      Integer capability = SyscallProbe.CAPABILITY_GATED.get(denied.name());
      if (capability != null && !new BigInteger(capEff, 16).testBit(capability)) {
        unjudged.add(denied.name() + " (needs capability " + capability + ")");
      } else if (denied.name().equals("io_uring_setup") && ioUringDisabled()) {
        unjudged.add(denied.name() + " (kernel.io_uring_disabled is set)");
      } else {
        expectedNot.put(denied.name(), denied.errno());
      }
    }
    for (long flag : SandboxSyscallPolicy.NAMESPACE_CLONE_FLAGS) {
      expectedNot.put(SyscallProbe.clone(flag), SandboxSyscallPolicy.EPERM);
    }
    for (var family : SandboxSyscallPolicy.deniedSocketFamilies(NetworkMode.NONE)) {
      expectedNot.put(SyscallProbe.socket(family.family(), 0), SandboxSyscallPolicy.EAFNOSUPPORT);
      expectedNot.put(SyscallProbe.socket(family.family(), 9), SandboxSyscallPolicy.EAFNOSUPPORT);
    }
    if (!unjudged.isEmpty()) {
      reporter.publishEntry("unjudged here", String.join(", ", unjudged));
    }

    Map<String, OptionalInt> outcomes = run(new ArrayList<>(expectedNot.keySet()));

    assertThat(outcomes).containsOnlyKeys(expectedNot.keySet());
    expectedNot.forEach(
        (attempt, policyErrno) ->
            assertThat(outcomes.get(attempt))
                .as("%s without a filter (it must fail, and not with the policy's error)", attempt)
                .isPresent()
                .isNotEqualTo(OptionalInt.of(policyErrno)));
  }

  @Test
  void namespaceClonesAndInvalidSocketsAreRefusedBeforeTheyHaveAnEffect() throws Exception {
    Map<String, OptionalInt> outcomes =
        run(
            List.of(
                SyscallProbe.clone(0),
                SyscallProbe.clone(0x10000000L),
                SyscallProbe.socket(2, 0),
                SyscallProbe.socket(16, 0)));

    assertThat(outcomes.values()).containsOnly(OptionalInt.of(22));
  }

  @Test
  void anUnknownAttemptIsReportedAsSuch() throws Exception {
    String stdout = runRaw(List.of("no_such_call", "clone:zz", "socket:1"));

    assertThat(stdout.lines())
        .containsExactly("no_such_call unknown", "clone:zz unknown", "socket:1 unknown");
    assertThatThrownBy(() -> SyscallProbe.parse(stdout))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no_such_call unknown");
  }

  private static Map<String, OptionalInt> run(List<String> attempts) throws Exception {
    return SyscallProbe.parse(runRaw(attempts));
  }

  private static String runRaw(List<String> attempts) throws Exception {
    List<String> argv = new ArrayList<>();
    argv.add(SyscallProbe.path().toString());
    argv.addAll(attempts);
    Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as("the probe's exit status (output %s)", stdout).isZero();
    return stdout;
  }

  private static String statusField(String name) throws IOException {
    return Files.readAllLines(Path.of("/proc/self/status")).stream()
        .filter(line -> line.startsWith(name + ":"))
        .map(line -> line.substring(name.length() + 1).strip())
        .findFirst()
        .orElseThrow();
  }

  private static boolean ioUringDisabled() throws IOException {
    Path setting = Path.of("/proc/sys/kernel/io_uring_disabled");
    return Files.exists(setting) && !Files.readString(setting).strip().equals("0");
  }
}
