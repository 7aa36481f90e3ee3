package dev.capability.examples.agentsandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example against a real work directory, its commands in a real Bubblewrap sandbox. */
class AgentSandboxExampleTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  @TempDir Path temp;

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void theAllowedCommandRunsInTheSandboxAndTheShellPipelineAndTheRmAreRefused() throws IOException {
    BWRAP.backend();
    // Run as root, the sandbox runs as nobody, which must be able to reach the work directory.
    Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path work = Files.createDirectory(temp.resolve("work"));

    List<String> lines = AgentSandboxExample.run(work);

    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).isEqualTo("wrote notes/todo.txt: true");
    assertThat(lines.get(1)).isEqualTo("[cat, notes/todo.txt]: exit 0: write the docs\\nrun the TCK\\n");
    assertThat(lines.get(2)).startsWith("[__SHELL_COMMAND__, cat notes/todo.txt | wc -l]: refused SHELL_SYNTAX: ")
        .contains("pipe");
    assertThat(lines.get(3)).startsWith("[rm, -rf, notes]: refused EXECUTABLE_NOT_ALLOWED: ");
    assertThat(work.resolve("notes/todo.txt")).hasContent("write the docs\nrun the TCK\n");
  }
}
