package dev.capability.kernel.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.linux.OpenDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A subdirectory swapped between its parent's listing and its own is refused, whichever way the
 * tree is read; one removed in between is left out.
 */
class TreeReaderTest {
  @TempDir Path temp;

  static List<TreeReader> readers() {
    return List.of(new JdkTreeReader(), new NativeTreeReader());
  }

  @Test
  void theNativeReaderIsPreferredWhereNativeAccessWorks() {
    // Linux with JNA's native part is where the kernel runs; elsewhere the JDK reader stands in.
    boolean nativeWorks = OpenDirectory.problem().isEmpty();
    assertThat(TreeReader.PREFERRED).isInstanceOf(nativeWorks ? NativeTreeReader.class : JdkTreeReader.class);
  }

  @ParameterizedTest
  @MethodSource("readers")
  void aSubdirectorySwappedForALinkAfterItsParentWasListedIsRefused(TreeReader reader) throws IOException {
    Path repo = Files.createDirectories(temp.resolve("repo/d"));
    Files.writeString(repo.resolve("inside"), "x");
    Path outside = Files.createDirectories(temp.resolve("outside"));
    Files.writeString(outside.resolve("secret"), "s");
    TreeReader.Listing root = reader.listRoot(temp.resolve("repo"));
    int d = indexOf(root, "d");

    Files.move(repo, temp.resolve("moved"));
    Files.createSymbolicLink(repo, outside);

    assertThatThrownBy(() -> root.listSubdirectory(d, "d"))
        .isInstanceOf(AuditException.class)
        .hasMessageContaining("was replaced while it was being snapshotted")
        .extracting(e -> ((AuditException) e).code())
        .isEqualTo(AuditException.SNAPSHOT_FAILED);
    root.holdFor(0);
  }

  @ParameterizedTest
  @MethodSource("readers")
  void aSubdirectorySwappedForAnotherDirectoryIsRefused(TreeReader reader) throws IOException {
    Path repo = Files.createDirectories(temp.resolve("repo/d"));
    TreeReader.Listing root = reader.listRoot(temp.resolve("repo"));
    int d = indexOf(root, "d");

    Files.move(repo, temp.resolve("moved"));
    Files.createDirectories(repo);

    assertThatThrownBy(() -> root.listSubdirectory(d, "d"))
        .isInstanceOf(AuditException.class)
        .hasMessageContaining("was replaced while it was being snapshotted");
    root.holdFor(0);
  }

  @ParameterizedTest
  @MethodSource("readers")
  void aSubdirectoryRemovedAfterItsParentWasListedIsLeftOut(TreeReader reader) throws IOException {
    Path repo = Files.createDirectories(temp.resolve("repo/d"));
    TreeReader.Listing root = reader.listRoot(temp.resolve("repo"));
    int d = indexOf(root, "d");

    Files.delete(repo);

    assertThat(root.listSubdirectory(d, "d")).isNull();
    root.holdFor(0);
  }

  @ParameterizedTest
  @MethodSource("readers")
  void aSubdirectoryIsListedThroughItsParentWithEveryEntrysState(TreeReader reader) throws IOException {
    Path repo = Files.createDirectories(temp.resolve("repo/d"));
    Files.writeString(repo.resolve("f"), "four");
    Files.createSymbolicLink(repo.resolve("l"), Path.of("../elsewhere/x"));
    TreeReader.Listing root = reader.listRoot(temp.resolve("repo"));

    root.holdFor(1);
    TreeReader.Listing d = root.listSubdirectory(indexOf(root, "d"), "d");
    root.release();

    assertThat(d).isNotNull();
    assertThat(d.entries()).extracting(TreeReader.Listed::name).containsExactlyInAnyOrder("f", "l");
    assertThat(d.entries().get(indexOf(d, "f")).state()).isEqualTo(PathState.lstat(repo.resolve("f")));
    assertThat(d.entries().get(indexOf(d, "l")).state().linkTarget()).contains("../elsewhere/x");
    d.holdFor(0);
  }

  private static int indexOf(TreeReader.Listing listing, String name) {
    return IntStream.range(0, listing.entries().size())
        .filter(i -> listing.entries().get(i).name().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
