package dev.capability.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.mcp.McpCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How apply_patch reads the paths a patch names, before git reads it again. */
class PatchToolTest {
  @TempDir Path repository;

  @Test
  void aRemovedLineThatLooksLikeAHeaderIsReadAsPartOfItsHunk() {
    assertThat(PatchTool.namedPaths("""
        --- a/src/x.sql
        +++ b/src/x.sql
        @@ -1,2 +1 @@
        --- a/.git/hooks/pre-commit
         keep
        """)).containsExactly("src/x.sql");
  }

  @Test
  void aHeaderAfterAHunkIsRead() {
    assertThat(PatchTool.namedPaths("""
        --- a/src/a.txt
        +++ b/src/a.txt
        @@ -1 +1 @@
        -a
        +b
        --- a/.git/config
        +++ b/.git/config
        @@ -1 +1 @@
        -x
        +y
        """)).containsExactly(".git/config", "src/a.txt");
  }

  @Test
  void aSymlinkModeAnywhereInTheHeadersIsRefused() {
    assertThatThrownBy(() -> PatchTool.namedPaths("""
        diff --git a/src/l b/src/l
        old mode 100644
        new mode 120000
        """)).isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(McpCodes.PATCH_SYMLINK));
  }

  @Test
  void renamesNameBothPathsAndGitsNumstatIsReadWithThem() {
    assertThat(PatchTool.namedPaths("""
        diff --git a/src/a b/.capability/a
        similarity index 100%
        rename from src/a
        rename to .capability/a
        """)).containsExactly(".capability/a", "src/a");
    assertThat(PatchTool.numstatPaths("1\t0\tsrc/a.txt\0" + "0\t0\t\0src/old\0src/new\0")).containsExactly("src/a.txt", "src/old", "src/new");
  }

  @Test
  void pathsThatLeaveTheRepositoryOrReachProtectedPlacesAreRefused() throws Exception {
    assertCode("../x", McpCodes.PATCH_INVALID);
    assertCode("src/../../x", McpCodes.PATCH_INVALID);
    assertCode("/etc/passwd", McpCodes.PATCH_INVALID);
    assertCode("sub/.GIT/hooks/pre-commit", McpCodes.PROTECTED_PATH);
    assertCode(".capability/state.db", McpCodes.PROTECTED_PATH);
    Files.createSymbolicLink(repository.resolve("link"), Path.of("/tmp"));
    assertCode("link/x", McpCodes.PATCH_SYMLINK);
    PatchTool.requireInside(repository, "src/ok.txt");
  }

  private void assertCode(String path, String code) {
    assertThatThrownBy(() -> PatchTool.requireInside(repository, path))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(code));
  }
}
