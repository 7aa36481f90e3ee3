package dev.capability.backend.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the suite against backends that lie about their capabilities or break the baseline, and
 * checks that exactly the tests that should catch them fail. Which attacks succeed against plain
 * child processes depends on this machine (root or not, a terminal or not), so the expectations are
 * worked out from this JVM, whose children inherit its privileges.
 */
class SuiteCatchesBrokenBackendsTest {

  @Test
  void anHonestBackendWithoutIsolationPassesEveryAttack() {
    Map<String, String> failed = failures(selectClass(PlainBackendContracts.HonestIsolation.class));

    assertThat(failed).isEmpty();
  }

  @Test
  void aBackendClaimingEveryCapabilityFailsEveryAttackThatWorksHere() throws Exception {
    Set<String> expected =
        new TreeSet<>(
            Set.of(
                "cannotWriteTheRepositoryOutsideItsWritableRoots",
                "cannotWriteHostFilesOutsideTheRepository",
                "cannotSeeOrWriteTheHostTmp",
                "cannotConnectToAHostLoopbackPortWithoutNetwork",
                "cannotReachAHostUnixSocketByPath",
                "filteredNetworkReachesOnlyTheEgressSocket",
                "theRelayEndsWithTheRunWhileAConnectionIsStillOpen",
                "cannotSeeOrSignalHostProcesses",
                "namespacesItClaimsAreNotTheLaunchers",
                // No filter of the project's policy here: the probe's calls reach the kernel.
                "appliesTheProjectsSeccompPolicy"));
    boolean root = Files.getAttribute(Path.of("/proc/self"), "unix:uid").equals(0);
    Map<String, String> status = jvmStatus();
    expectIf(
        expected,
        root || Files.isWritable(Path.of("/var/tmp")),
        "cannotCreateFilesOnTheHostRootFilesystem");
    expectIf(
        expected,
        System.getenv().entrySet().stream()
            .anyMatch(e -> !(e.getKey() + "=" + e.getValue()).equals("PATH=/usr/bin:/bin")),
        "cannotReadTheLauncherEnvironment");
    expectIf(
        expected,
        Files.isWritable(Path.of("/proc/sys/vm/drop_caches"))
            || Files.isWritable(Path.of("/proc/sys/kernel/hostname")),
        "cannotWriteKernelSettings");
    expectIf(
        expected,
        root || !status.get("CapAmb").chars().allMatch(c -> c == '0'),
        "holdsNoLinuxCapabilities");
    expectIf(expected, !"1".equals(status.get("NoNewPrivs")), "cannotGainPrivileges");
    expectIf(expected, !"2".equals(status.get("Seccomp")), "runsUnderASeccompFilter");
    expectIf(expected, userNamespacesWork(), "cannotCreateNestedUserNamespaces");
    expectIf(expected, root, "hasNoRealRootAuthorityOverHostFiles");
    expectIf(expected, hasControllingTerminal(), "cannotReachTheLaunchingTerminal");

    Map<String, String> failed =
        failures(selectClass(PlainBackendContracts.OverclaimingIsolation.class));

    assertThat(failed.keySet()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(failed.values())
        .allSatisfy(message -> assertThat(message).contains("so the backend must not advertise"));
  }

  @Test
  void claimingSessionOrTreeTerminationWithoutDeliveringItFails() {
    Set<String> escapes =
        Set.of(
            "timeoutEndsAnOrphanLeftInTheSession", "timeoutEndsADoubleForkedDaemonInItsOwnSession");

    assertThat(
            failures(methods(PlainBackendContracts.OverclaimingTermination.class, escapes))
                .keySet())
        .containsExactlyInAnyOrderElementsOf(escapes);
    assertThat(failures(methods(PlainBackendContracts.HonestTermination.class, escapes))).isEmpty();
  }

  @Test
  void claimingTheFileSizeLimitWithoutSettingItFails() {
    Set<String> tests = Set.of("aFilePastMaxFileBytesEndsTheCommandWithTheBound");

    assertThat(failures(methods(PlainBackendContracts.OverclaimingResources.class, tests)).keySet())
        .containsExactlyInAnyOrderElementsOf(tests);
  }

  @Test
  void aBackendThatLeaksTheJvmEnvironmentFails() {
    String test = "commandSeesExactlyTheSpecEnvironment";

    assertThat(failures(selectMethod(PlainBackendContracts.EnvironmentLeakingBaseline.class, test)))
        .containsKey(test);
    assertThat(failures(selectMethod(PlainBackendContracts.HonestBaseline.class, test))).isEmpty();
  }

  @Test
  void aBackendThatRunsArgvThroughAShellFails() {
    Set<String> tests =
        Set.of("awkwardArgumentsReachTheCommandExactly", "anyArgumentsReachTheCommandExactly");

    assertThat(failures(methods(PlainBackendContracts.ShellBaseline.class, tests)).keySet())
        .containsExactlyInAnyOrderElementsOf(tests);
    assertThat(failures(methods(PlainBackendContracts.HonestBaseline.class, tests))).isEmpty();
  }

  @Test
  void anUnavailableBackendSkipsEveryTestInsteadOfFailingIt() {
    List<Outcome> outcomes = run(selectClass(PlainBackendContracts.Unavailable.class));

    assertThat(outcomes).hasSizeGreaterThan(40);
    assertThat(outcomes)
        .filteredOn(outcome -> outcome.result().getStatus() != TestExecutionResult.Status.ABORTED)
        .isEmpty();
  }

  private static DiscoverySelector[] methods(Class<?> testClass, Set<String> names) {
    // By Method rather than name, since properties take parameters.
    return Arrays.stream(testClass.getMethods())
        .filter(method -> names.contains(method.getName()))
        .map(method -> selectMethod(testClass, method))
        .toArray(DiscoverySelector[]::new);
  }

  /** Failed or aborted test methods of the selected tests: name to message. */
  private static Map<String, String> failures(DiscoverySelector... selectors) {
    Map<String, String> failed = new TreeMap<>();
    for (Outcome outcome : run(selectors)) {
      if (outcome.result().getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
        failed.put(
            outcome.method(),
            outcome.result().getThrowable().map(Throwable::getMessage).orElse("" + outcome));
      }
    }
    return failed;
  }

  /**
   * How one test method (or one invocation of a parameterized test or property) ended.
   *
   * @param method the test method's name
   * @param result how it ended
   */
  private record Outcome(String method, TestExecutionResult result) {}

  /** Runs the selected tests on the JUnit Platform, as surefire would, and collects outcomes. */
  private static List<Outcome> run(DiscoverySelector... selectors) {
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request().selectors(selectors).build();
    List<Outcome> outcomes = new ArrayList<>();
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (test.isTest() && test.getSource().orElse(null) instanceof MethodSource method) {
              outcomes.add(new Outcome(method.getMethodName(), result));
            }
          }
        };
    LauncherFactory.create().execute(request, listener);
    return outcomes;
  }

  private static void expectIf(Set<String> expected, boolean condition, String test) {
    if (condition) {
      expected.add(test);
    }
  }

  private static Map<String, String> jvmStatus() throws IOException {
    Map<String, String> status = new TreeMap<>();
    for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        status.put(line.substring(0, colon), line.substring(colon + 1).strip());
      }
    }
    return status;
  }

  private static boolean userNamespacesWork() throws IOException, InterruptedException {
    Process unshare =
        new ProcessBuilder(
                Tools.find("unshare").toString(), "--user", Tools.find("true").toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!unshare.waitFor(10, TimeUnit.SECONDS)) {
      unshare.destroyForcibly();
      return false;
    }
    return unshare.exitValue() == 0;
  }

  private static boolean hasControllingTerminal() throws IOException {
    String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.UTF_8);
    return !stat.substring(stat.lastIndexOf(") ") + 2).split(" ")[4].equals("0");
  }
}
