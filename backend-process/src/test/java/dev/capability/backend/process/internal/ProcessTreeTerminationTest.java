package dev.capability.backend.process.internal;

import static dev.capability.backend.process.internal.CommandFixtures.killAndAwait;
import static dev.capability.backend.process.internal.CommandFixtures.newMarker;
import static dev.capability.backend.process.internal.CommandFixtures.processesWithMarker;
import static dev.capability.backend.process.internal.CommandFixtures.script;
import static dev.capability.backend.process.internal.CommandFixtures.sessionBackend;
import static dev.capability.backend.process.internal.CommandFixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.backend.support.ProcStat;
import dev.capability.backend.support.ProcTable;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessTreeTerminationTest {
  /**
   * Processes that stay in the command's session: a background child, a TERM-ignoring child and an
   * orphan a subshell left behind.
   */
  private static final String SESSION_TREE =
      "sleep 300 &\n"
          + "sh -c 'trap \"\" TERM; while :; do sleep 1; done' &\n"
          + "( sleep 300 & )\n";

  /** The session tree plus a child that moved to a session of its own but is still a descendant. */
  private static final String TREE_WITH_NEW_SESSION_CHILD = SESSION_TREE + "setsid sleep 300 &\n";

  private static final String READY = "echo ready\n";

  @TempDir Path dir;

  private final ProcessBackend backend = sessionBackend();
  private final String marker = newMarker();

  @BeforeEach
  void requireSessions() {
    assumeTrue(
        backend.capabilities().contains(IsolationCapability.SESSION_TERMINATION),
        "no verified setsid on this machine");
  }

  @Test
  void theCommandLeadsItsOwnSessionAndIsTheJvmsDirectChild() {
    LaunchResult result =
        backend.launch(spec(script(dir, "echo $$; cat /proc/$$/stat"), dir, marker).build());

    List<String> lines = result.stdout().text().lines().toList();
    ProcStat stat = ProcStat.parse(lines.get(1));
    assertThat(stat.pid()).isEqualTo(Long.parseLong(lines.get(0)));
    assertThat(stat.session()).isEqualTo(stat.pid());
    assertThat(stat.pgrp()).isEqualTo(stat.pid());
    // setsid did not fork: the command is the very process the JVM started.
    assertThat(stat.ppid()).isEqualTo(ProcessHandle.current().pid());
  }

  @Test
  void throughTheSetsidFallbackTheCommandAlsoLeadsItsOwnSessionAsTheJvmsDirectChild() {
    SessionSupport setsid =
        new SetsidProbe(SetsidProbe.SETSID_PATHS, SetsidProbe.CAT_PATHS).probe();
    assumeTrue(setsid.available(), setsid.explanation());
    LaunchResult result =
        new ProcessBackend(setsid)
            .launch(spec(script(dir, "echo $$; cat /proc/$$/stat"), dir, marker).build());

    List<String> lines = result.stdout().text().lines().toList();
    ProcStat stat = ProcStat.parse(lines.get(1));
    assertThat(stat.pid()).isEqualTo(Long.parseLong(lines.get(0)));
    assertThat(stat.session()).isEqualTo(stat.pid());
    assertThat(stat.ppid()).isEqualTo(ProcessHandle.current().pid());
  }

  @Test
  void timeoutEndsTheWholeTreeIncludingTermIgnoringAndOrphanedProcesses() {
    LaunchSpec spec =
        spec(script(dir, TREE_WITH_NEW_SESSION_CHILD + READY + "wait"), dir, marker)
            .timeout(Duration.ofSeconds(2))
            .build();

    LaunchResult result = backend.launch(spec);

    assertThat(result.stdout().text()).isEqualTo("ready\n");
    assertThat(result.timedOut()).isTrue();
    assertThat(result.outputLimitHit()).isFalse();
    assertThat(result.termination()).isEqualTo("session-signal");
    assertThat(result.exitCode()).hasValue(128 + 15);
    assertThat(processesWithMarker(marker)).isEmpty();
  }

  @Test
  void timeoutSendsTermFirstAndWaitsForTheGracePeriod() {
    String body = "trap 'echo got TERM; exit 7' TERM\necho ready\nwhile :; do sleep 0.1; done";
    LaunchSpec spec =
        spec(script(dir, body), dir, marker)
            .timeout(Duration.ofSeconds(1))
            .terminationGrace(Duration.ofSeconds(10))
            .build();

    LaunchResult result = backend.launch(spec);

    assertThat(result.stdout().text()).isEqualTo("ready\ngot TERM\n");
    assertThat(result.exitCode()).hasValue(7);
    assertThat(result.timedOut()).isTrue();
    assertThat(processesWithMarker(marker)).isEmpty();
  }

  @Test
  void leftoversAreEndedAfterTheCommandExits() {
    LaunchResult result =
        backend.launch(spec(script(dir, SESSION_TREE + READY + "exit 0"), dir, marker).build());

    assertThat(result.exitCode()).hasValue(0);
    assertThat(result.timedOut()).isFalse();
    assertThat(result.termination()).isEqualTo("session-signal");
    assertThat(processesWithMarker(marker)).isEmpty();
  }

  @Test
  void aCommandThatLeavesNothingBehindReportsNoTermination() {
    LaunchResult result =
        backend.launch(spec(script(dir, "sleep 0 & wait; echo done"), dir, marker).build());

    assertThat(result.termination()).isEqualTo("none");
    assertThat(result.stdout().text()).isEqualTo("done\n");
  }

  @Test
  void aDaemonThatDoubleForksIntoItsOwnSessionEscapes() throws IOException {
    // The documented limit: no session scan and no parentage reach this process.
    Path pidFile = dir.resolve("daemon.pid");
    String body =
        "( setsid sh -c 'echo $$ > \"$1\"; exec sleep 300' sh '"
            + pidFile
            + "' >/dev/null 2>&1 & )\n"
            + "while [ ! -s '"
            + pidFile
            + "' ]; do sleep 0.05; done\n"
            + "exit 0";

    LaunchResult result = backend.launch(spec(script(dir, body), dir, marker).build());

    long daemon = Long.parseLong(Files.readString(pidFile).strip());
    try {
      assertThat(result.exitCode()).hasValue(0);
      assertThat(processesWithMarker(marker)).extracting(ProcStat::pid).containsExactly(daemon);
      assertThat(ProcTable.read(daemon))
          .get()
          .satisfies(
              stat -> {
                assertThat(stat.exited()).isFalse();
                assertThat(stat.session()).isEqualTo(daemon);
              });
    } finally {
      killAndAwait(daemon);
    }
    assertThat(processesWithMarker(marker)).isEmpty();
  }

  @Test
  void anEscapedDaemonHoldingTheOutputPipeCannotHangTheLaunch() throws IOException {
    // Were the launch to wait for the end of stdout, it would wait for the daemon; it ends once
    // the command's own tree is gone.
    ProcessBackend impatient =
        new ProcessBackend(new SetsidProbe().probe(), Duration.ofMillis(300));
    Path pidFile = dir.resolve("daemon.pid");
    String body =
        "echo before\n"
            + "( setsid sh -c 'echo $$ > \"$1\"; exec sleep 300' sh '"
            + pidFile
            + "' & )\n"
            + "while [ ! -s '"
            + pidFile
            + "' ]; do sleep 0.05; done\n"
            + "exit 0";

    LaunchResult result = impatient.launch(spec(script(dir, body), dir, marker).build());

    killAndAwait(Long.parseLong(Files.readString(pidFile).strip()));
    assertThat(result.exitCode()).hasValue(0);
    assertThat(result.stdout().text()).isEqualTo("before\n");
    assertThat(result.outputLimitHit()).isFalse();
  }

  @Test
  void processesOutsideTheTreeAreNotSignalled() throws IOException {
    Process bystander =
        new ProcessBuilder("/bin/sleep", "300")
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    try {
      LaunchResult result =
          backend.launch(
              spec(script(dir, TREE_WITH_NEW_SESSION_CHILD + READY + "wait"), dir, marker)
                  .timeout(Duration.ofSeconds(1))
                  .build());

      assertThat(result.timedOut()).isTrue();
      assertThat(bystander.isAlive()).isTrue();
    } finally {
      bystander.destroyForcibly();
    }
  }

  @Test
  void refusesToEndTheJvmItsAncestorsOrItsSession() {
    JvmProcesses jvm = JvmProcesses.current();
    long self = ProcessHandle.current().pid();
    long parent = ProcessHandle.current().parent().orElseThrow().pid();

    assertThatThrownBy(() -> new ProcessTreeTerminator(self, () -> true, true, Duration.ZERO, jvm))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("this JVM");
    assertThatThrownBy(
            () -> new ProcessTreeTerminator(parent, () -> true, false, Duration.ZERO, jvm))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ancestors");
    JvmProcesses sessionNotInLineage = new JvmProcesses(java.util.Set.of(self), jvm.session());
    assertThatThrownBy(
            () ->
                new ProcessTreeTerminator(
                    jvm.session(), () -> true, true, Duration.ZERO, sessionNotInLineage))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("own session");
  }

  @Test
  void terminationSignalsTheTreeAndNeverTheJvm() throws IOException {
    Process root =
        new ProcessBuilder(
                "/usr/bin/setsid",
                "--",
                "/bin/sh",
                "-c",
                "sleep 300 & ( sleep 300 & ); echo ready; wait")
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    try {
      assertThat(
              new String(
                  root.getInputStream().readNBytes(6), java.nio.charset.StandardCharsets.US_ASCII))
          .isEqualTo("ready\n");
      JvmProcesses jvm = JvmProcesses.current();
      ProcessTreeTerminator terminator =
          new ProcessTreeTerminator(root.pid(), root::isAlive, true, Duration.ofMillis(200), jvm);

      TerminationReport report = terminator.terminate();

      assertThat(report.signalled())
          .hasSize(3)
          .contains(root.pid())
          .doesNotContainAnyElementsOf(jvm.pids());
      assertThat(report.survivors()).isEmpty();
      assertThat(root.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(ProcTable.snapshot())
          .filteredOn(p -> p.session() == root.pid() && !p.exited())
          .isEmpty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      root.destroyForcibly();
    }
  }

  @Test
  void interruptingTheLauncherEndsTheTreeAndKeepsTheInterrupt() throws Exception {
    LaunchSpec spec =
        spec(script(dir, SESSION_TREE + READY + "wait"), dir, marker)
            .timeout(Duration.ofSeconds(60))
            .build();
    AtomicBoolean stillInterrupted = new AtomicBoolean();
    CompletableFuture<LaunchResult> launched = new CompletableFuture<>();
    Thread launcher =
        new Thread(
            () -> {
              Thread.currentThread().interrupt();
              try {
                launched.complete(backend.launch(spec));
              } catch (RuntimeException e) {
                launched.completeExceptionally(e);
              }
              stillInterrupted.set(Thread.currentThread().isInterrupted());
            });
    launcher.start();

    LaunchResult result = launched.get(60, TimeUnit.SECONDS);
    launcher.join();

    assertThat(result.timedOut()).isFalse();
    assertThat(stillInterrupted).isTrue();
    assertThat(processesWithMarker(marker)).isEmpty();
  }

  @Test
  void withoutSetsidTheCommandSharesTheJvmSessionAndDescendantsAreEnded() {
    ProcessBackend fallback = new ProcessBackend(SessionSupport.unavailable("no setsid (test)"));
    String body =
        "cat /proc/$$/stat\n"
            + "sleep 300 &\n"
            + "sh -c 'trap \"\" TERM; while :; do sleep 1; done' &\n"
            + "setsid sleep 300 &\n"
            + "echo ready\n"
            + "wait";

    LaunchResult result =
        fallback.launch(
            spec(script(dir, body), dir, marker).timeout(Duration.ofSeconds(2)).build());

    ProcStat stat = ProcStat.parse(result.stdout().text().lines().findFirst().orElseThrow());
    assertThat(stat.session()).isEqualTo(JvmProcesses.current().session());
    assertThat(result.stdout().text()).endsWith("ready\n");
    assertThat(result.timedOut()).isTrue();
    assertThat(result.termination()).isEqualTo("descendants-signal");
    assertThat(processesWithMarker(marker)).isEmpty();
  }
}
