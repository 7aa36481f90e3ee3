package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.backend.BackendConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LauncherCommandTest {
  private static final HostTools TOOLS =
      new HostTools(
          Path.of("/usr/bin/bwrap"),
          new BwrapVersion(0, 8, 0),
          Path.of("/usr/bin/flock"),
          Path.of("/usr/bin/env"),
          Optional.of(Path.of("/usr/bin/setpriv")),
          Optional.of(Path.of("/usr/bin/prlimit")),
          Optional.of(Path.of("/usr/bin/mkfifo")));
  private static final Path ARGS = Path.of("/tmp/capability-bwrap-1/run-2/args");
  private static final Path EXE = Path.of("/usr/bin/git");

  @Test
  void aRootJvmDropsEverythingBeforeBwrap() {
    List<String> argv =
        LauncherCommand.build(
            "r1",
            TOOLS,
            new SandboxIdentity(65534, 65533, true),
            ResourceLimits.NONE,
            ARGS,
            3,
            EXE,
            List.of("status", "--short"),
            false);

    assertThat(argv)
        .containsExactly(
            "/usr/bin/flock",
            "--no-fork",
            "--shared",
            ARGS.toString(),
            "/usr/bin/setpriv",
            "--reuid=65534",
            "--regid=65533",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
            "/usr/bin/bwrap",
            "--unsetenv",
            "CAPABILITY_RUN_r1",
            "--args",
            "3",
            "--",
            "/usr/bin/env",
            "-u",
            "PWD",
            "--",
            "/usr/bin/git",
            "status",
            "--short");
  }

  @Test
  void anUnprivilegedJvmKeepsItsUidAndRlimitsComeFirst() {
    ResourceLimits limits =
        BwrapSettings.from(new BackendConfig(Map.of("bwrap.limit.open-files", "64"))).limits();
    List<String> argv =
        LauncherCommand.build(
            "r2",
            TOOLS,
            new SandboxIdentity(1000, 1000, false),
            limits,
            ARGS,
            3,
            EXE,
            List.of(),
            true);

    assertThat(argv)
        .containsExactly(
            "/usr/bin/prlimit",
            "--nofile=64:64",
            "--",
            "/usr/bin/flock",
            "--no-fork",
            "--shared",
            ARGS.toString(),
            "/usr/bin/setpriv",
            "--inh-caps=-all",
            "--no-new-privs",
            "--",
            "/usr/bin/bwrap",
            "--unsetenv",
            "CAPABILITY_RUN_r2",
            "--args",
            "3",
            "--",
            "/usr/bin/git");
    assertThat(argv).noneMatch(a -> a.startsWith("--reuid"));
  }
}
