package dev.capability.kernel.core.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write scope that names an existing file is mounted by its directory; directories and missing roots are passed as they are. */
class MountableRootsTest {
  @TempDir Path repository;

  @Test
  void anExistingFileRootIsMountedByItsDirectoryOnce() throws Exception {
    Path java = Files.createDirectories(repository.resolve("src/main/java"));
    Path calc = Files.writeString(java.resolve("Calc.java"), "class Calc {}");
    Path util = Files.writeString(java.resolve("Util.java"), "class Util {}");
    Path target = Files.createDirectories(repository.resolve("target"));

    assertThat(LaunchStage.mountableRoots(List.of(calc, util, target))).containsExactly(java, target);
  }

  @Test
  void aFileRootUnderAnotherRootIsDroppedAndMissingOrDirectoryRootsStay() throws Exception {
    Path src = Files.createDirectories(repository.resolve("src"));
    Path pom = Files.writeString(repository.resolve("src/pom.xml"), "<project/>");
    Path missing = repository.resolve("out/report.txt");

    assertThat(LaunchStage.mountableRoots(List.of(src, pom, missing))).containsExactly(missing, src);
  }

  @Test
  void aSymbolicLinkRootIsNotReplacedByItsDirectory() throws Exception {
    Path file = Files.writeString(repository.resolve("real.txt"), "x");
    Path link = Files.createSymbolicLink(repository.resolve("link.txt"), file);

    assertThat(LaunchStage.mountableRoots(List.of(link))).containsExactly(link);
  }
}
