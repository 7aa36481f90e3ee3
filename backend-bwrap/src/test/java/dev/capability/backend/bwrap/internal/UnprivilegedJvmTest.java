package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.backend.support.StaticCompiler;
import dev.capability.backend.tck.BackendGate;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend used by an unprivileged JVM. This test JVM runs as root in CI, so it starts a child
 * JVM as uid 65534 through {@code setpriv}, on a copy of the test class path that uid can read,
 * running {@link UnprivilegedLaunchMain}, and checks what it reports.
 */
class UnprivilegedJvmTest {
  private static final int NOBODY = 65534;

  @TempDir Path tmp;

  @Test
  void anUnprivilegedJvmGetsTheSameSandbox() throws Exception {
    try (BackendGate gate = Sandboxes.gate()) {
      gate.backend();
    }
    assumeTrue(
        Sandboxes.jvmIsRoot(), "this test JVM is not root, so it already is the unprivileged case");
    Path setpriv = TrustedTool.find(TrustedTool.systemPaths("setpriv"), false).orElseThrow();
    open(tmp);
    String classPath = readableCopyOfClassPath(open(tmp.resolve("classpath")));
    Path work = open(tmp.resolve("work"));
    Files.setAttribute(work, "unix:uid", NOBODY);
    Files.setAttribute(work, "unix:gid", NOBODY);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");

    ProcessBuilder builder =
        new ProcessBuilder(
                setpriv.toString(),
                "--reuid=" + NOBODY,
                "--regid=" + NOBODY,
                "--clear-groups",
                "--",
                java.toString(),
                "-cp",
                classPath,
                UnprivilegedLaunchMain.class.getName(),
                work.toString())
            .directory(work.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectError(ProcessBuilder.Redirect.to(tmp.resolve("stderr").toFile()));
    builder.environment().clear();
    builder
        .environment()
        .putAll(Map.of("PATH", "/usr/bin:/bin", "LANG", "C.UTF-8", "HOME", work.toString()));
    Process child = builder.start();
    byte[] stdout = child.getInputStream().readAllBytes();
    assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String stderr = Files.readString(tmp.resolve("stderr"));
    assertThat(child.exitValue()).as("child JVM stderr: %s", stderr).isZero();
    Map<String, String> findings = new LinkedHashMap<>();
    for (String line : new String(stdout, StandardCharsets.UTF_8).lines().toList()) {
      int equals = line.indexOf('=');
      findings.put(line.substring(0, equals), line.substring(equals + 1));
    }

    assertThat(findings)
        .containsEntry("jvm.uid", "65534")
        .containsEntry("sandbox.uid", "65534")
        .containsEntry("host.written-owner", "65534")
        .containsEntry("sandbox.repository", "repo-readonly")
        .containsEntry("host.tracked", "original")
        .containsEntry("sandbox.writable-root", "root-writable")
        .containsEntry("sandbox.environment", "ONLY=this PATH=/usr/bin:/bin")
        .containsEntry("sandbox.pid1-environment-bytes", "0")
        .containsEntry("sandbox.loopback", "loopback-unreachable")
        .containsEntry("timeout.timed-out", "true")
        .containsEntry("timeout.termination", SandboxTerminator.PID_NAMESPACE);
    assertThat(findings.get("identity")).contains("sandboxes run as this JVM's uid 65534");
    assertThat(findings.get("termination.mechanism"))
        .as("no writable cgroup for uid 65534")
        .startsWith("pid-namespace");
    assertThat(Integer.parseInt(findings.get("sandbox.process-count"))).isLessThan(5);
    assertThat(findings.get("capabilities"))
        .contains("NON_ROOT", "PID_NAMESPACE", "NETWORK_NAMESPACE");
    if (StaticCompiler.onThisHost().isPresent()) {
      // The relay builds as any user here: filtered egress must work for this one too.
      assertThat(findings.get("capabilities")).contains("FILTERED_EGRESS");
      assertThat(findings).containsEntry("egress.reply", "proxy-saw-5");
    }
    if (findings.get("capabilities").contains("NO_NESTED_USER_NAMESPACES")) {
      assertThat(findings).containsEntry("sandbox.nested-userns", "no-nested-userns");
    }
  }

  /** Copies every class path entry below {@code target}, readable by every uid. */
  private static String readableCopyOfClassPath(Path target) throws IOException {
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> copied = new ArrayList<>();
    int index = 0;
    for (String entry : classPath.split(File.pathSeparator)) {
      Path source = Path.of(entry);
      if (!Files.exists(source)) {
        continue;
      }
      Path copy = target.resolve((index++) + "-" + source.getFileName());
      if (Files.isDirectory(source)) {
        copyTree(source, copy);
      } else {
        Files.copy(source, copy);
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
      }
      copied.add(copy.toString());
    }
    return String.join(File.pathSeparator, copied);
  }

  private static void copyTree(Path source, Path target) throws IOException {
    try (Stream<Path> paths = Files.walk(source)) {
      for (Path path : paths.toList()) {
        Path copy = target.resolve(source.relativize(path).toString());
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
          open(copy);
        } else if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
          Files.copy(path, copy);
          Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
        }
      }
    }
  }

  private static Path open(Path directory) {
    try {
      Files.createDirectories(directory);
      Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
      return directory;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
