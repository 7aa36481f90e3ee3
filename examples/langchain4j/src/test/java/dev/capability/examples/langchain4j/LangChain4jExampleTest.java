package dev.capability.examples.langchain4j;

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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example agent on a real repository, its command run in a real Bubblewrap sandbox. */
class LangChain4jExampleTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  @TempDir Path temp;
  private Path repository;

  @BeforeEach
  void createRepository() throws IOException {
    BWRAP.backend();
    // Run as root, the sandbox runs as nobody, which must be able to reach the repository.
    Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
    repository = Files.createDirectory(temp.resolve("repository")).toRealPath();
    Files.writeString(repository.resolve("README.md"), "# hello\n");
    Files.setPosixFilePermissions(repository.resolve("README.md"), PosixFilePermissions.fromString("rw-r--r--"));
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void theAgentReadsTheFileInTheSandboxIsDeniedTheDeletionAndAnswers() throws IOException {
    Path policyFile = LangChain4jExample.writePolicy(Files.createDirectory(temp.resolve("policy")));
    LangChain4jExample.ScriptedModel model = new LangChain4jExample.ScriptedModel();

    String answer = LangChain4jExample.run(policyFile, repository, model);

    assertThat(answer).contains("refused");
    List<String> results = model.toolResults();
    assertThat(results).hasSize(2);
    assertThat(results.get(0)).startsWith("run_command -> ").contains("\"status\":\"COMPLETED\"").contains("# hello")
        .contains("\"id\":\"bwrap\"");
    assertThat(results.get(1)).contains("\"status\":\"DENIED\"").contains("\"layer\":\"operator\"");
    assertThat(repository.resolve("README.md")).exists();
  }
}
