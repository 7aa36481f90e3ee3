package dev.capability.examples.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.testing.Git;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The example application, started as its users start it, against a real repository in a real Bubblewrap sandbox. */
class SpringAiExampleTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());

  /** The policy the operator installs: {@code git status --short} and nothing else. */
  private static final String POLICY = """
      {
        "version": 1,
        "network": "none",
        "projectWrites": "read-only",
        "environment": {"inherit": ["PATH", "LANG"]},
        "executables": {"git": {"name": "git", "arguments": {"subcommands": {"status": {"flags": {"--short": {}}}}}}}
      }
      """;

  @TempDir Path temp;
  private Path repository;
  private Path policy;

  @BeforeEach
  void createRepositoryAndPolicy() throws Exception {
    BWRAP.backend();
    // Run as root, the sandbox runs as nobody, which must be able to reach the repository.
    Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
    repository = Git.init(temp.resolve("repository")).toRealPath();
    Files.writeString(repository.resolve("hello.txt"), "hello\n");
    Path policyDirectory = Files.createDirectory(temp.resolve("policy"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    policy = policyDirectory.resolve("policy.json");
    Files.writeString(policy, POLICY, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void theAgentRunsGitStatusInTheSandboxAndIsToldWhyGitLogWasRefused() {
    try (ConfigurableApplicationContext application = start("--capability.backend=bwrap")) {
      String answer = application.getBean(ChatClient.class).prompt().user(SpringAiExample.QUESTION).call().content();

      assertThat(answer).contains("\"status\":\"COMPLETED\"").contains("\"text\":\"?? hello.txt\\n\"").contains("\"id\":\"bwrap\"");
      assertThat(answer).contains("\"status\":\"DENIED\"").contains("\"code\":\"SUBCOMMAND_NOT_ALLOWED\"").contains("\"layer\":\"operator\"");
    }
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void theApplicationDoesNotStartWhenOthersMayWriteThePolicyAndSaysWhatToFix(CapturedOutput output) throws Exception {
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-rw----"));

    assertThatThrownBy(() -> start().close())
        .hasStackTraceContaining("POLICY_WRITABLE_BY_OTHERS: capability.policy-path " + policy.toRealPath());
    assertThat(output.getAll())
        .contains("APPLICATION FAILED TO START")
        .contains("POLICY_WRITABLE_BY_OTHERS: capability.policy-path " + policy.toRealPath())
        .contains("Fix the execution policy file named by capability.policy-path");
  }

  private ConfigurableApplicationContext start(String... more) {
    String[] arguments = new String[3 + more.length];
    arguments[0] = "--spring.main.banner-mode=off";
    arguments[1] = "--capability.policy-path=" + policy;
    arguments[2] = "--capability.repository=" + repository;
    System.arraycopy(more, 0, arguments, 3, more.length);
    return SpringApplication.run(SpringAiExample.class, arguments);
  }
}
