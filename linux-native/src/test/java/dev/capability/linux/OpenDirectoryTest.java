package dev.capability.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenDirectoryTest {
  @TempDir Path temp;

  @Test
  void listsEveryEntryWithTheStatusLstatReports() throws IOException {
    Path root = temp.toRealPath();
    Files.writeString(root.resolve("file"), "five!");
    Files.setAttribute(root.resolve("file"), "unix:mode", 04751);
    Files.createDirectory(root.resolve("dir"));
    Files.createSymbolicLink(root.resolve("link"), Path.of("../somewhere/else"));
    Files.writeString(root.resolve("名 with space"), "");

    List<OpenDirectory.Entry> entries;
    try (OpenDirectory directory = OpenDirectory.open(root)) {
      entries = directory.list();
    }

    Map<String, OpenDirectory.Entry> byName = entries.stream()
        .collect(Collectors.toMap(e -> new String(e.name(), StandardCharsets.UTF_8), e -> e));
    assertThat(byName).containsOnlyKeys("file", "dir", "link", "名 with space");
    for (Map.Entry<String, OpenDirectory.Entry> entry : byName.entrySet()) {
      Map<String, Object> lstat = Files.readAttributes(
          root.resolve(entry.getKey()), "unix:mode,dev,ino,size,lastModifiedTime,ctime", LinkOption.NOFOLLOW_LINKS);
      FileStatus status = entry.getValue().status();
      assertThat(status.mode()).as(entry.getKey()).isEqualTo(lstat.get("mode"));
      assertThat(status.device()).as(entry.getKey()).isEqualTo(lstat.get("dev"));
      assertThat(status.inode()).as(entry.getKey()).isEqualTo(lstat.get("ino"));
      assertThat(status.size()).as(entry.getKey()).isEqualTo(lstat.get("size"));
      assertThat(nanos(status.modifiedSeconds(), status.modifiedNanos()))
          .isEqualTo(((FileTime) lstat.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS));
      assertThat(nanos(status.changedSeconds(), status.changedNanos()))
          .isEqualTo(((FileTime) lstat.get("ctime")).to(TimeUnit.NANOSECONDS));
    }
    assertThat(byName.get("link").linkTarget()).isEqualTo("../somewhere/else".getBytes(StandardCharsets.UTF_8));
    assertThat(byName.get("file").linkTarget()).isNull();
  }

  @Test
  void opensAChildWithoutFollowingALinkAndKnowsAMissingOne() throws IOException {
    Path root = temp.toRealPath();
    Files.createDirectory(root.resolve("real"));
    Files.createSymbolicLink(root.resolve("link"), root.resolve("real"));
    Files.writeString(root.resolve("file"), "x");
    try (OpenDirectory directory = OpenDirectory.open(root)) {
      for (String notADirectory : List.of("link", "file")) {
        assertThatThrownBy(() -> directory.openChild(notADirectory.getBytes(StandardCharsets.UTF_8)))
            .isInstanceOfSatisfying(
                NativeCallException.class,
                e -> assertThat(e.code()).isEqualTo(NativeCallException.PATH_HAS_SYMLINK))
            .hasMessageContaining(root.resolve(notADirectory).toString());
      }
      assertThat(directory.openChild("missing".getBytes(StandardCharsets.UTF_8))).isEmpty();
      assertThatThrownBy(() -> directory.openChild("a/b".getBytes(StandardCharsets.UTF_8)))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void anOpenDirectoryIsStillTheSameDirectoryAfterItsPathIsSwappedForALink() throws IOException {
    Path root = temp.toRealPath();
    Path scope = Files.createDirectory(root.resolve("scope"));
    Files.writeString(scope.resolve("inside"), "x");
    Object inode = Files.getAttribute(scope, "unix:ino", LinkOption.NOFOLLOW_LINKS);
    try (OpenDirectory root0 = OpenDirectory.open(root);
        OpenDirectory opened = root0.openChild("scope".getBytes(StandardCharsets.UTF_8)).orElseThrow()) {
      Files.move(scope, root.resolve("moved"));
      Files.createSymbolicLink(scope, Path.of("/etc"));

      assertThat(opened.status().inode()).isEqualTo(inode);
      assertThat(opened.list()).extracting(e -> new String(e.name(), StandardCharsets.UTF_8)).containsExactly("inside");
    }
  }

  @Test
  void refusesToOpenALinkAsTheDirectory() throws IOException {
    Path link = Files.createSymbolicLink(temp.toRealPath().resolve("link"), Path.of("/tmp"));
    assertThatThrownBy(() -> OpenDirectory.open(link))
        .isInstanceOfSatisfying(
            NativeCallException.class, e -> assertThat(e.code()).isEqualTo(NativeCallException.PATH_HAS_SYMLINK));
  }

  private static long nanos(long seconds, int nanos) {
    return seconds * 1_000_000_000L + nanos;
  }
}
