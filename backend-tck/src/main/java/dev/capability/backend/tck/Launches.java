package dev.capability.backend.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.kernel.api.backend.ShippedWorkspace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * Launches the commands of one test through the backend under test, with a marker in their
 * environment, and checks afterwards that none of their processes is still alive.
 */
final class Launches {
  /** The variable that marks every process of a test's commands. */
  static final String MARKER_VARIABLE = "CK_TCK_MARKER";

  /** Long enough never to pass in a passing run; a test that expects a timeout sets its own. */
  static final Duration NEVER = Duration.ofSeconds(20);

  /** Timeouts tried in turn until a command's fixtures report ready before it passes. */
  private static final List<Duration> READY_TIMEOUTS =
      List.of(Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(10));

  private final BackendUnderTest target;
  private final Workspace workspace;
  private final String marker = "ck-tck-" + UUID.randomUUID();

  Launches(BackendUnderTest target, Workspace workspace) {
    this.target = Objects.requireNonNull(target, "target");
    this.workspace = Objects.requireNonNull(workspace, "workspace");
    // Now, not inside a launch: a backend that cannot run here aborts the test (see BackendGate)
    // before a test that expects a launch to throw could take the abort for its exception.
    target.backend();
  }

  /** The suite's default environment: a search path and the marker. */
  private Map<String, String> environment() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("PATH", "/usr/bin:/bin");
    environment.put(MARKER_VARIABLE, marker);
    return environment;
  }

  /** A spec for {@code executable} with the suite's defaults, the backend's, then arguments. */
  LaunchSpec.Builder spec(Path executable, String... arguments) {
    return spec(target.pin(executable), arguments);
  }

  /** A spec for an executable pinned by the test itself. */
  LaunchSpec.Builder spec(PinnedExecutable executable, String... arguments) {
    LaunchSpec.Builder defaults =
        LaunchSpec.builder(executable)
            .workingDirectory(workspace.repository())
            .repository(workspace.repository())
            .environment(environment())
            .network(NetworkMode.NONE)
            .timeout(NEVER)
            .terminationGrace(Duration.ofMillis(300));
    return target.withDefaults(defaults).arguments(Arrays.asList(arguments));
  }

  /** Launches and requires that no process of the command outlives the launch. */
  LaunchResult run(LaunchSpec spec) {
    Run run = runCollectingSurvivors(spec);
    assertThat(run.survivors())
        .as("processes of %s still alive after launch() returned", spec.executable().path())
        .isEmpty();
    return run.result();
  }

  /** Launches, then records and ends whatever processes of the command outlived the launch. */
  Run runCollectingSurvivors(LaunchSpec spec) {
    LaunchResult result;
    List<String> survivors;
    try {
      result = target.backend().launch(shipped(spec));
    } finally {
      // Also after a failed launch: no test may leave processes behind for the next one.
      survivors = target.liveProcessesMarkedWith(marker);
      if (!survivors.isEmpty()) {
        target.endProcessesMarkedWith(marker);
      }
    }
    return new Run(result, survivors);
  }

  /**
   * The spec with the workspace the kernel would ship, when the backend under test advertises
   * {@link IsolationCapability#REMOTE_WORKSPACE} and the spec has a repository: every such spec
   * must carry one, as the kernel gives one.
   */
  private LaunchSpec shipped(LaunchSpec spec) {
    if (spec.repository().isEmpty()
        || spec.workspace().isPresent()
        || !target.backend().capabilities().contains(IsolationCapability.REMOTE_WORKSPACE)) {
      return spec;
    }
    Optional<ShippedWorkspace> workspace = target.shippedWorkspace(spec);
    if (workspace.isEmpty()) {
      return fail(
          "the backend advertises REMOTE_WORKSPACE, so every spec with a repository must carry a"
              + " ShippedWorkspace: override BackendUnderTest.shippedWorkspace to give the kernel's");
    }
    return spec.toBuilder().workspace(workspace.get()).build();
  }

  /**
   * Launches with a short timeout and again with longer ones until every token in {@code ready}
   * appears as a line of stdout, so that a slow machine never turns a fixture that was still being
   * set up into a false pass. Survivors of every attempt are collected.
   */
  Run runUntilReady(Function<Duration, LaunchSpec> specWithTimeout, Collection<String> ready) {
    List<String> survivors = new ArrayList<>();
    Run last = null;
    for (Duration timeout : READY_TIMEOUTS) {
      last = runCollectingSurvivors(specWithTimeout.apply(timeout));
      survivors.addAll(last.survivors());
      if (last.result().stdout().text().lines().toList().containsAll(ready)) {
        return new Run(last.result(), survivors);
      }
      if (!last.result().timedOut()) {
        break;
      }
    }
    return fail(
        "the command's fixtures never reported %s on stdout (stdout %s, stderr %s, result %s)",
        ready, last.result().stdout().text(), last.result().stderr().text(), last.result());
  }

  /**
   * One launch and what it left behind.
   *
   * @param result the backend's result
   * @param survivors processes of the command alive after launch() returned, already ended
   */
  record Run(LaunchResult result, List<String> survivors) {
    Run {
      survivors = List.copyOf(survivors);
    }
  }
}
