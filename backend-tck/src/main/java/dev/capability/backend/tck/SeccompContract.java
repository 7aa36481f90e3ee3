package dev.capability.backend.tck;

import static dev.capability.kernel.api.backend.IsolationCapability.SECCOMP;
import static org.assertj.core.api.Assertions.fail;

import dev.capability.backend.support.SandboxSyscallPolicy;
import dev.capability.backend.support.SandboxSyscallPolicy.DeniedSocketFamily;
import dev.capability.backend.support.SandboxSyscallPolicy.DeniedSyscall;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.LaunchResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A backend that advertises {@code SECCOMP} applies the project's own policy ({@link
 * SandboxSyscallPolicy}), not merely some filter: the {@link SyscallProbe} attempts every denied
 * call, every namespace flag of {@code clone} and every denied socket family inside the sandbox,
 * and each must fail with exactly the policy's error, while a {@code clone} without namespace
 * flags, ordinary socket families and (with a network) Netlink's routing protocol get through to
 * the kernel. Runs with every network mode ({@code FILTERED} with a socket of the suite's
 * standing in for the proxy); a mode the backend refuses is skipped. Against a backend that does not advertise {@code SECCOMP} the attack is not run, since
 * it could disprove nothing: the policy is what the capability promises.
 */
public interface SeccompContract extends BackendUnderTest {

  /** What the kernel answers every probe attempt that no filter stops (its arguments are invalid). */
  int EINVAL = 22;

  /** {@code NETLINK_AUDIT}: a Netlink protocol other than routing. */
  int NETLINK_AUDIT = 9;

  @ParameterizedTest
  @EnumSource(NetworkMode.class)
  default void appliesTheProjectsSeccompPolicy(NetworkMode network, TestReporter reporter) {
    if (!backend().capabilities().contains(SECCOMP)) {
      // Nothing to disprove: the attack could not fail the test, so it is not run.
      reporter.publishEntry(
          "SECCOMP", "backend " + backend().id() + " does not advertise SECCOMP; not attacked");
      return;
    }
    Map<String, Integer> expected = expectedErrors(network);
    try (Workspace workspace = Workspace.create();
        EgressSocketServer proxy = EgressSocketServer.start("unused")) {
      Launches launches = new Launches(this, workspace);

      LaunchResult result;
      try {
        result =
            launches.run(
                launches
                    .spec(SyscallProbe.path(), expected.keySet().toArray(String[]::new))
                    .network(network)
                    .egressSocket(network == NetworkMode.FILTERED ? proxy.socket() : null)
                    .build());
      } catch (CapabilityException refused) {
        result =
            Assumptions.abort(
                "the backend refuses network " + network + ": " + refused.getMessage());
      }

      Claims.fixtureRan(result, 0);
      Map<String, OptionalInt> outcomes = SyscallProbe.parse(result.stdout().text());
      List<String> wrong = new ArrayList<>();
      expected.forEach(
          (attempt, errno) -> {
            OptionalInt got = outcomes.getOrDefault(attempt, null);
            if (got == null || !got.equals(OptionalInt.of(errno))) {
              wrong.add(
                  attempt
                      + ": expected errno "
                      + errno
                      + (errno == EINVAL ? " (let through)" : " (denied)")
                      + ", got "
                      + (got == null ? "no report" : got.isPresent() ? got.getAsInt() : "success"));
            }
          });
      reporter.publishEntry(
          "SECCOMP",
          "without their capability the kernel refuses "
              + new TreeSet<>(SyscallProbe.CAPABILITY_GATED.keySet())
              + " with EPERM itself, so for them the probe shows the filter only together with"
              + " the capability drop");
      if (!wrong.isEmpty()) {
        fail(
            "with network %s the project's seccomp policy is not what the sandbox of backend %s"
                + " enforces, so the backend must not advertise SECCOMP:%n%s",
            network, backend().id(), String.join("\n", wrong));
      }
    }
  }

  /** Each probe attempt for a run with {@code network}, and the error the policy gives it. */
  private static Map<String, Integer> expectedErrors(NetworkMode network) {
    Map<String, Integer> expected = new LinkedHashMap<>();
    for (DeniedSyscall denied : SandboxSyscallPolicy.deniedSyscalls()) {
      expected.put(denied.name(), denied.errno());
    }
    for (long flag : SandboxSyscallPolicy.NAMESPACE_CLONE_FLAGS) {
      expected.put(SyscallProbe.clone(flag), SandboxSyscallPolicy.EPERM);
    }
    for (DeniedSocketFamily family : SandboxSyscallPolicy.deniedSocketFamilies(network)) {
      List<Integer> protocols = new ArrayList<>(List.of(0, NETLINK_AUDIT));
      family.allowedProtocol().ifPresent(protocols::add);
      for (int protocol : protocols) {
        boolean allowed = family.allowedProtocol().equals(OptionalInt.of(protocol));
        expected.put(
            SyscallProbe.socket(family.family(), protocol),
            allowed ? EINVAL : SandboxSyscallPolicy.EAFNOSUPPORT);
      }
    }
    // What the policy lets through must still work: fork and threads, Unix and IP sockets.
    expected.put(SyscallProbe.clone(0), EINVAL);
    expected.put(SyscallProbe.socket(1, 0), EINVAL);
    expected.put(SyscallProbe.socket(2, 0), EINVAL);
    expected.put(SyscallProbe.socket(10, 0), EINVAL);
    return expected;
  }
}
