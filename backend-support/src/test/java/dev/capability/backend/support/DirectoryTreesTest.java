package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryTreesTest {
  @TempDir Path work;

  @Test
  void deletesTheTreeButNotWhatALinkInItPointsTo() throws IOException {
    Path outside = Files.createDirectories(work.resolve("outside"));
    Files.writeString(outside.resolve("keep.txt"), "host file");
    Path run = Files.createDirectories(work.resolve("run/a/b"));
    Files.writeString(run.resolve("out.txt"), "x");
    Files.createSymbolicLink(work.resolve("run/a/escape"), outside);
    Files.createSymbolicLink(work.resolve("run/file-link"), outside.resolve("keep.txt"));

    DirectoryTrees.delete(work.resolve("run"));

    assertThat(Files.exists(work.resolve("run"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    assertThat(outside.resolve("keep.txt")).hasContent("host file");
  }

  @Test
  void anAbsentTreeIsNothingToDo() {
    assertThatCode(() -> DirectoryTrees.delete(work.resolve("never-made"))).doesNotThrowAnyException();
  }
}
