package dev.capability.backend.tck;

import static dev.capability.kernel.api.backend.IsolationCapability.CAPABILITY_DROP;
import static dev.capability.kernel.api.backend.IsolationCapability.NON_ROOT;
import static dev.capability.kernel.api.backend.IsolationCapability.NO_NESTED_USER_NAMESPACES;
import static dev.capability.kernel.api.backend.IsolationCapability.NO_NEW_PRIVILEGES;
import static dev.capability.kernel.api.backend.IsolationCapability.SECCOMP;
import static dev.capability.kernel.api.backend.IsolationCapability.SESSION_TERMINATION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.backend.LaunchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * Attacks with privileges: kernel settings, Linux capabilities, no-new-privileges, seccomp, nested
 * user namespaces, real-root authority over host files, and the launching terminal.
 */
public interface PrivilegeContract extends BackendUnderTest {

  @Test
  default void cannotWriteKernelSettings() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(
              launches.spec(Tools.find("perl"), "-e", Programs.KERNEL_SETTINGS_PROBE).build());

      Claims.fixtureRan(result, 0);
      Map<String, String> report = Tools.report(result);
      assertThat(report).containsKeys("drop-caches-opened", "hostname-written");
      Claims claims = Claims.of(backend());
      claims.attack(
          "1".equals(report.get("drop-caches-opened")),
          "the command opened /proc/sys/vm/drop_caches for writing",
          NON_ROOT,
          CAPABILITY_DROP);
      claims.attack(
          "1".equals(report.get("hostname-written")),
          "the command wrote /proc/sys/kernel/hostname",
          CAPABILITY_DROP);
      claims.verify();
    }
  }

  @Test
  default void holdsNoLinuxCapabilities() {
    Map<String, String> status = commandStatus();
    Claims claims = Claims.of(backend());
    for (String set : List.of("CapInh", "CapPrm", "CapEff", "CapAmb")) {
      String value = status.getOrDefault(set, "");
      claims.attack(
          !value.isEmpty() && !value.chars().allMatch(c -> c == '0'),
          "the command holds capabilities " + set + "=" + value,
          CAPABILITY_DROP);
    }
    claims.verify();
  }

  @Test
  default void cannotGainPrivileges() {
    Map<String, String> status = commandStatus();
    Claims claims = Claims.of(backend());
    claims.attack(
        !"1".equals(status.get("NoNewPrivs")),
        "the command's NoNewPrivs is " + status.get("NoNewPrivs") + ", so set-uid binaries work",
        NO_NEW_PRIVILEGES);
    claims.verify();
  }

  @Test
  default void runsUnderASeccompFilter() {
    Map<String, String> status = commandStatus();
    Claims claims = Claims.of(backend());
    claims.attack(
        !"2".equals(status.get("Seccomp")),
        "the command's Seccomp mode is " + status.get("Seccomp") + ", not 2 (filter)",
        SECCOMP);
    claims.verify();
  }

  @Test
  default void cannotCreateNestedUserNamespaces() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(
              launches
                  .spec(Tools.find("unshare"), "--user", Tools.find("true").toString())
                  .build());

      Claims.fixtureRan(result, 0, 1);
      Claims claims = Claims.of(backend());
      claims.attack(
          result.exitCode().getAsInt() == 0,
          "the command created a user namespace (unshare --user)",
          NO_NESTED_USER_NAMESPACES);
      claims.verify();
    }
  }

  @Test
  default void hasNoRealRootAuthorityOverHostFiles(TestReporter reporter) throws IOException {
    boolean jvmIsRoot = uid(Path.of("/proc/self")) == 0;
    if (!jvmIsRoot) {
      reporter.publishEntry(
          "NON_ROOT", "this JVM is not root, so no command it starts has root's authority");
    }
    String token = "ck-tck-secret-" + UUID.randomUUID();
    try (Workspace workspace = Workspace.create()) {
      Path secret = workspace.shared().resolve("root-only.txt");
      Files.writeString(secret, token, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
      Path created = workspace.writable().resolve("owned.txt");
      Path probe = workspace.script("root.sh", "cat \"$1\"\nprintf x > \"$2\" || exit 1\nexit 0");
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(
              launches
                  .spec(probe, secret.toString(), created.toString())
                  .writableRoots(List.of(workspace.writable()))
                  .build());

      Claims.fixtureRan(result, 0);
      Claims claims = Claims.of(backend());
      claims.attack(
          jvmIsRoot && result.stdout().text().contains(token),
          "the command read a host file only root may read (mode 0600, owner root)",
          NON_ROOT);
      claims.attack(
          uid(created) == 0, "a file the command wrote is owned by root on the host", NON_ROOT);
      claims.verify();
    }
  }

  @Test
  default void cannotReachTheLaunchingTerminal(TestReporter reporter) {
    boolean jvmHasTerminal = controllingTerminal() != 0;
    String situation =
        jvmHasTerminal
            ? "this JVM has a controlling terminal, so the attack is real"
            : "this JVM has no controlling terminal (as under Maven or CI), so the attack fails"
                + " trivially here; run the suite from a terminal to make it real";
    reporter.publishEntry("SESSION_TERMINATION", situation);
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(
              launches.spec(Tools.find("perl"), "-e", Programs.TERMINAL_INJECTION).build());

      Claims.fixtureRan(result, 0, 3, 4);
      // Opening /dev/tty at all means the command shares the operator's terminal, whether or not
      // the kernel still allows TIOCSTI.
      Claims claims = Claims.of(backend());
      claims.attack(
          result.exitCode().getAsInt() != 3,
          "the command opened the launching terminal /dev/tty"
              + (result.exitCode().getAsInt() == 0 ? " and injected input with TIOCSTI" : "")
              + "; "
              + situation,
          SESSION_TERMINATION);
      claims.verify();
    }
  }

  /** The {@code /proc/self/status} of a command launched through the backend. */
  private Map<String, String> commandStatus() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      LaunchResult result =
          launches.run(launches.spec(Tools.find("cat"), "/proc/self/status").build());
      Claims.fixtureRan(result, 0);
      Map<String, String> status = new LinkedHashMap<>();
      for (String line : result.stdout().text().lines().toList()) {
        int colon = line.indexOf(':');
        if (colon > 0) {
          status.put(line.substring(0, colon), line.substring(colon + 1).strip());
        }
      }
      assertThat(status).as("/proc/self/status of the command").containsKeys("CapEff", "Seccomp");
      return status;
    }
  }

  /** This JVM's controlling terminal device number from /proc/self/stat; 0 when it has none. */
  private static long controllingTerminal() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.UTF_8);
      // Fields after the command name: state ppid pgrp session tty_nr ...
      String[] fields = stat.substring(stat.lastIndexOf(") ") + 2).split(" ");
      return Long.parseLong(fields[4]);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read /proc/self/stat", e);
    }
  }

  private static int uid(Path path) {
    try {
      return (Integer) Files.getAttribute(path, "unix:uid");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the owner of " + path, e);
    }
  }
}
