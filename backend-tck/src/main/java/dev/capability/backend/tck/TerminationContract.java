package dev.capability.backend.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Timeouts and leftovers: a timeout ends the command's whole process tree, TERM first and KILL
 * after the grace period; processes that left the tree are ended exactly when the backend
 * advertises the capability that covers them ({@code SESSION_TERMINATION} for orphans still in the
 * command's session, {@code TREE_TERMINATION} for daemons that left it), and otherwise the backend
 * must not advertise it.
 *
 * <p>Each fixture prints {@code ready} lines once its processes are set up; a launch whose timeout
 * passed before that is repeated with a longer timeout, so a slow machine cannot fake a pass.
 */
public interface TerminationContract extends BackendUnderTest {

  @Test
  default void timeoutEndsTheCommandAndReportsIt() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path sleeper = workspace.script("sleeper.sh", "echo ready\nexec sleep 30");

      Launches.Run run =
          launches.runUntilReady(
              timeout -> launches.spec(sleeper).timeout(timeout).build(), List.of("ready"));

      assertThat(run.result().timedOut()).as("timedOut").isTrue();
      assertThat(run.result().outputLimitHit()).as("outputLimitHit").isFalse();
      assertThat(run.result().termination())
          .as("termination of a command ended at its timeout")
          .isNotEqualTo("none");
      assertThat(run.survivors()).as("processes alive after launch() returned").isEmpty();
    }
  }

  @Test
  default void timeoutSendsTermBeforeKill() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path polite =
          workspace.script(
              "polite.sh", "trap 'echo got-term; exit 0' TERM\necho ready\nsleep 30 &\nwait");

      Launches.Run run =
          launches.runUntilReady(
              timeout ->
                  launches
                      .spec(polite)
                      .timeout(timeout)
                      .terminationGrace(Duration.ofSeconds(5))
                      .build(),
              List.of("ready"));

      assertThat(run.result().timedOut()).isTrue();
      assertThat(run.result().stdout().text().lines())
          .as("the command's own TERM handler ran, and its output was kept")
          .contains("got-term");
      assertThat(run.survivors()).as("processes alive after launch() returned").isEmpty();
    }
  }

  @Test
  default void timeoutEndsBackgroundChildren() {
    assertTimeoutEnds(
        "children.sh",
        "sleep 30 &\n(sleep 30; echo never) &\n(exec sleep 30) &\necho ready\nwait",
        List.of("ready"),
        Set.of());
  }

  @Test
  default void timeoutEndsProcessesThatIgnoreTerm() {
    assertTimeoutEnds(
        "deaf.sh",
        "trap '' TERM\n(echo child-ready; exec sleep 30) &\necho ready\nexec sleep 30",
        List.of("ready", "child-ready"),
        Set.of());
  }

  @Test
  default void timeoutEndsADescendantThatStartedItsOwnSession() {
    assertTimeoutEnds(
        "session.sh",
        "setsid sh -c 'echo session-ready; exec sleep 30' &\necho ready\nwait",
        List.of("ready", "session-ready"),
        Set.of());
  }

  @Test
  default void timeoutEndsAnOrphanLeftInTheSession() {
    // The subshell exits at once, so its child is reparented away from the command.
    assertTimeoutEnds(
        "orphan.sh",
        "(sh -c 'echo orphan-ready; exec sleep 30 >/dev/null 2>&1' &)\necho ready\nexec sleep 30",
        List.of("ready", "orphan-ready"),
        Set.of(IsolationCapability.SESSION_TERMINATION, IsolationCapability.TREE_TERMINATION));
  }

  @Test
  default void timeoutEndsADoubleForkedDaemonInItsOwnSession() {
    assertTimeoutEnds(
        "daemon.sh",
        "(setsid sh -c 'echo daemon-ready; exec sleep 30 >/dev/null 2>&1' &)\n"
            + "echo ready\nexec sleep 30",
        List.of("ready", "daemon-ready"),
        Set.of(IsolationCapability.TREE_TERMINATION));
  }

  @Test
  default void processesLeftBehindByACommandThatExitedAreEnded() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      // One child keeps the output pipe open, one is an orphan that closed it.
      Path leaver =
          workspace.script(
              "leaver.sh",
              "sleep 30 &\n(sh -c 'exec sleep 30 >/dev/null 2>&1' &)\necho ready\nexit 0");

      Launches.Run run = launches.runCollectingSurvivors(launches.spec(leaver).build());

      assertThat(run.result().exitCode()).hasValue(0);
      assertThat(run.result().timedOut()).isFalse();
      assertThat(run.result().stdout().text()).isEqualTo("ready\n");
      assertEndedOrNotClaimed(
          run,
          Set.of(IsolationCapability.SESSION_TERMINATION, IsolationCapability.TREE_TERMINATION));
    }
  }

  /**
   * The host JVM dies by SIGKILL (no shutdown hook, no finally block runs) while the backend runs a
   * command that started a daemon in a session of its own; a backend that advertises {@code
   * TERMINATION_ON_HOST_EXIT} ends both with it. The host is a JVM of its own ({@link
   * HostJvmFixture}) that creates the backend by its id with default settings.
   */
  @Test
  default void theWholeTreeEndsWhenTheHostJvmIsKilled() throws Exception {
    Assumptions.assumeTrue(
        backend().capabilities().contains(IsolationCapability.TERMINATION_ON_HOST_EXIT),
        "the backend does not advertise TERMINATION_ON_HOST_EXIT");
    try (Workspace workspace = Workspace.create()) {
      String marker = "ck-tck-host-" + UUID.randomUUID();
      Path ready = workspace.writable().resolve("ready");
      Path tree =
          workspace.script(
              "tree.sh",
              "setsid -f sleep 3600\nsleep 3600 &\necho ready > writable/ready\nwait");
      Process host =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  HostJvmFixture.class.getName(),
                  backend().id(),
                  workspace.repository().toString(),
                  workspace.writable().toString(),
                  tree.toString(),
                  marker)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(workspace.root().resolve("host.err").toFile())
              .start();
      try {
        long deadline = System.nanoTime() + HostJvmFixture.WAIT.toNanos();
        while (!Files.exists(ready) || liveProcessesMarkedWith(marker).size() < 2) {
          if (!host.isAlive() || System.nanoTime() > deadline) {
            fail(
                "the host's command never got ready: "
                    + Files.readString(workspace.root().resolve("host.err")));
          }
          Thread.sleep(50);
        }
        host.destroyForcibly().waitFor();
        List<String> left = liveProcessesMarkedWith(marker);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
          Thread.sleep(50);
          left = liveProcessesMarkedWith(marker);
        }

        assertThat(left).as("processes of the run alive after its host JVM was killed").isEmpty();
      } finally {
        host.destroyForcibly();
        endProcessesMarkedWith(marker);
      }
    }
  }

  private void assertTimeoutEnds(
      String name, String body, List<String> ready, Set<IsolationCapability> coveredBy) {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path script = workspace.script(name, body);

      Launches.Run run =
          launches.runUntilReady(
              timeout ->
                  launches
                      .spec(script)
                      .timeout(timeout)
                      .terminationGrace(Duration.ofMillis(200))
                      .build(),
              ready);

      LaunchResult result = run.result();
      assertThat(result.timedOut()).as("timedOut").isTrue();
      assertThat(result.termination()).as("termination").isNotEqualTo("none");
      assertEndedOrNotClaimed(run, coveredBy);
    }
  }

  /**
   * With {@code coveredBy} empty, nothing may survive. Otherwise survivors are allowed only when
   * the backend advertises none of {@code coveredBy}; the launch already ended them.
   */
  private void assertEndedOrNotClaimed(Launches.Run run, Set<IsolationCapability> coveredBy) {
    if (coveredBy.isEmpty() || run.survivors().isEmpty()) {
      assertThat(run.survivors()).as("processes alive after launch() returned").isEmpty();
      return;
    }
    assertThat(backend().capabilities())
        .as(
            "processes %s escaped termination, so the backend must not advertise any of %s",
            run.survivors(), coveredBy)
        .doesNotContainAnyElementsOf(coveredBy);
  }
}
