package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrustedToolTest {
  @TempDir Path tmp;

  @Test
  void trustsRootOwnedSystemPrograms() {
    Path env = TrustedTool.find(TrustedTool.systemPaths("env"), false).orElseThrow();

    assertThat(TrustedTool.problem(env, false)).isEmpty();
  }

  @Test
  void refusesProgramsOthersCouldReplace() throws IOException {
    Path copy = tmp.resolve("env");
    Files.copy(Path.of("/usr/bin/env"), copy);
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));

    assertThat(TrustedTool.problem(copy, false))
        .hasValueSatisfying(
            p -> assertThat(p).containsAnyOf("writable by group or others", "not root"));
    assertThat(TrustedTool.find(List.of(copy), false)).isEmpty();
    assertThat(TrustedTool.problem(Path.of("usr/bin/env"), false))
        .hasValueSatisfying(p -> assertThat(p).contains("absolute"));
    assertThat(TrustedTool.problem(Path.of("/usr/bin"), false))
        .hasValueSatisfying(p -> assertThat(p).contains("not a regular file"));
  }

  @Test
  void refusesToolPathsThroughSymlinks() {
    assumeTrue(Files.isSymbolicLink(Path.of("/bin")), "/bin is a directory on this host");

    assertThat(TrustedTool.problem(Path.of("/bin/env"), false))
        .hasValueSatisfying(p -> assertThat(p).contains("passes through the symlink /bin"));
  }
}
