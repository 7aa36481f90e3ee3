package dev.capability.backend.tck;

import static dev.capability.kernel.api.backend.IsolationCapability.PID_NAMESPACE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Attacks on other processes: reading the launcher's environment through {@code /proc}, seeing and
 * signalling a host process, and sharing the launcher's namespaces.
 */
public interface ProcessVisibilityContract extends BackendUnderTest {

  @Test
  default void cannotReadTheLauncherEnvironment() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path probe = workspace.script("environments.sh", Programs.ANCESTOR_ENVIRONMENTS);
      LaunchSpec spec = launches.spec(probe).maxOutputBytes(16L << 20).build();
      Set<String> granted =
          spec.environment().entrySet().stream()
              .map(e -> e.getKey() + "=" + e.getValue())
              .collect(Collectors.toSet());

      LaunchResult result = launches.run(spec);

      Claims.fixtureRan(result, 0);
      assertThat(result.stdout().truncated()).isFalse();
      List<String> entries = Tools.nulTerminated(result.stdout().bytes());
      assertThat(entries).as("the probe's output").isNotEmpty();
      assertThat(entries.get(0)).startsWith(Programs.PROCESS_SEPARATOR);
      // The command's own environment comes first; whether it is exact is a baseline test. What
      // matters here is what it reads of other processes.
      Set<String> foreign = new TreeSet<>();
      boolean own = true;
      for (String entry : entries.subList(1, entries.size())) {
        if (entry.startsWith(Programs.PROCESS_SEPARATOR)) {
          own = false;
        } else if (!own && !granted.contains(entry)) {
          int equals = entry.indexOf('=');
          // Names only: a failure message must not print the launcher's secrets.
          foreign.add(equals < 0 ? "(malformed entry)" : entry.substring(0, equals));
        }
      }
      Claims claims = Claims.of(backend());
      claims.attack(
          !foreign.isEmpty(),
          "through /proc the command read environment variables it was not given: " + foreign,
          PID_NAMESPACE);
      claims.verify();
    }
  }

  @Test
  default void cannotSeeOrSignalHostProcesses() throws IOException {
    String canaryMarker = "ck-tck-canary-" + UUID.randomUUID();
    Process canary =
        new ProcessBuilder(Tools.find("perl").toString(), "-e", "sleep 60", "--", canaryMarker)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    try (Workspace workspace = Workspace.create()) {
      Path markerFile =
          workspace.readableFile(
              workspace.bin().resolve("canary-marker"),
              canaryMarker.getBytes(StandardCharsets.UTF_8));
      long jvm = ProcessHandle.current().pid();
      String jvmCommandLineDigest = Sha256.hex(Files.readAllBytes(Path.of("/proc/self/cmdline")));
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(
              launches
                  .spec(
                      Tools.find("perl"),
                      "-e",
                      Programs.HOST_PROCESS_PROBE,
                      "--",
                      Long.toString(canary.pid()),
                      markerFile.toString(),
                      Long.toString(jvm),
                      jvmCommandLineDigest)
                  .build());

      Claims.fixtureRan(result, 0);
      Map<String, String> report = Tools.report(result);
      assertThat(report).containsKeys("canary-seen", "jvm-seen", "canary-signalled");
      Claims claims = Claims.of(backend());
      claims.attack(
          !"0".equals(report.get("canary-seen")),
          "the command saw the host process " + canary.pid() + " in its /proc",
          PID_NAMESPACE);
      claims.attack(
          "1".equals(report.get("jvm-seen")),
          "the command saw the launching JVM " + jvm + " in its /proc",
          PID_NAMESPACE);
      claims.attack(
          !"0".equals(report.get("canary-signalled")),
          "the command sent TERM to the host process " + canary.pid(),
          PID_NAMESPACE);
      claims.verify();
    } finally {
      canary.destroyForcibly();
    }
  }

  @Test
  default void namespacesItClaimsAreNotTheLaunchers() {
    Map<String, IsolationCapability> namespaces = new LinkedHashMap<>();
    namespaces.put("pid", IsolationCapability.PID_NAMESPACE);
    namespaces.put("net", IsolationCapability.NETWORK_NAMESPACE);
    namespaces.put("ipc", IsolationCapability.IPC_NAMESPACE);
    namespaces.put("uts", IsolationCapability.UTS_NAMESPACE);
    namespaces.put("cgroup", IsolationCapability.CGROUP_NAMESPACE);
    namespaces.put("user", IsolationCapability.USER_NAMESPACE);
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path probe =
          workspace.script(
              "namespaces.sh",
              "for n in \"$@\"; do printf '%s %s\\n"
                  + "' \"$n\" \"$(readlink /proc/self/ns/$n)\"; done");
      String[] names = namespaces.keySet().toArray(String[]::new);

      LaunchResult result;
      try {
        result = launches.run(launches.spec(probe, names).network(NetworkMode.NONE).build());
      } catch (CapabilityException refused) {
        assertThat(backend().capabilities())
            .as("the backend refused network NONE (%s)", refused.getMessage())
            .doesNotContain(IsolationCapability.NETWORK_NAMESPACE);
        namespaces.remove("net");
        result = launches.run(launches.spec(probe, names).network(NetworkMode.HOST).build());
      }

      Claims.fixtureRan(result, 0);
      Map<String, String> inside = Tools.report(result);
      Claims claims = Claims.of(backend());
      for (Map.Entry<String, IsolationCapability> namespace : namespaces.entrySet()) {
        String launcher = launcherNamespace(namespace.getKey());
        claims.attack(
            launcher.equals(inside.get(namespace.getKey())),
            "the command shares the launcher's " + namespace.getKey() + " namespace " + launcher,
            namespace.getValue());
      }
      claims.verify();
    }
  }

  private static String launcherNamespace(String name) {
    try {
      return Files.readSymbolicLink(Path.of("/proc/self/ns", name)).toString();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read this JVM's " + name + " namespace", e);
    }
  }
}
