package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@link DocumentedCommands} reads a page: which lines run, with which exit, and what is only referenced. */
class DocumentedCommandsReadingTest {
  @TempDir Path dir;

  private Path page(String text) throws IOException {
    return Files.writeString(dir.resolve("page.md"), text);
  }

  @Test
  void anShBlockShowingTheCliRunsLineByLineWithItsExitComments() throws IOException {
    Path page = page("""
        Text with `bin/capability doctor --json` inline.

        ```sh
        mkdir -m 777 notes   # as root
        bin/capability run x \\
            --input '{"a":"# not a comment"}'
        bin/capability check -- git push    # exit 1, denied
        ```
        """);

    List<DocumentedCommands.Example> examples = DocumentedCommands.examples(page);

    assertThat(examples).extracting(DocumentedCommands.Example::text).containsExactly(
        "mkdir -m 777 notes", "bin/capability run x --input '{\"a\":\"# not a comment\"}'", "bin/capability check -- git push");
    assertThat(examples).extracting(DocumentedCommands.Example::expectedExit)
        .containsExactly(OptionalInt.empty(), OptionalInt.empty(), OptionalInt.of(1));
    assertThat(examples).extracting(DocumentedCommands.Example::line).containsExactly(4, 5, 7);
    assertThat(DocumentedCommands.references(page)).extracting(DocumentedCommands.Reference::text)
        .containsExactly("bin/capability doctor --json");
  }

  @Test
  void blocksWithoutTheCliOrMarkedNotRunOrUnlabelledAreOnlyReferences() throws IOException {
    Path page = page("""
        ```sh
        ./mvnw -B verify
        ```

        <!-- not run: needs a Maven repository -->
        ```sh
        bin/capability acquire a:b:1 --repository https://repo.example/
        ```

        ```
        capability ledger list [--repo DIR] [--json]
        ```
        """);

    assertThat(DocumentedCommands.examples(page)).isEmpty();
    assertThat(DocumentedCommands.references(page)).extracting(DocumentedCommands.Reference::text).containsExactly(
        "bin/capability acquire a:b:1 --repository https://repo.example/", "capability ledger list [--repo DIR] [--json]");
  }
}
