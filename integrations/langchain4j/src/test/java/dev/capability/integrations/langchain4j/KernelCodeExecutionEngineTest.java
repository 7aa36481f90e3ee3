package dev.capability.integrations.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.backend.tck.BackendGate;
import dev.capability.integrations.tools.AgentToolCodes;
import dev.capability.integrations.tools.AgentTools;
import dev.capability.integrations.tools.TestRepository;
import dev.capability.testing.RequiredBackends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The code execution engine: Python on standard input, through the kernel, under bwrap; the sandbox's bounds hold for the code. */
class KernelCodeExecutionEngineTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The engine's policy: exactly {@code python3 -}, no network, writes only under {@code docs/}. */
  private static final String POLICY = """
      {"version": 1, "timeoutMillis": 60000, "maxOutputBytes": 1048576, "network": "none", "projectWrites": "scoped", "writeScopes": ["docs/**"],
       "environment": {"inherit": ["PATH"]},
       "executables": {"python3": {"name": "python3", "exact": [["-"]]}}}
      """;
  private static BackendGate bwrap;

  @TempDir Path base;
  private TestRepository repo;

  @BeforeAll
  static void open() {
    bwrap = TestRepository.bwrap();
  }

  @AfterAll
  static void close() {
    bwrap.close();
  }

  @BeforeEach
  void setUp() throws IOException {
    if (!Files.isExecutable(Path.of("/usr/bin/python3"))) {
      RequiredBackends.skipOrFail("the code engine's tests run /usr/bin/python3, which is missing");
    }
    repo = TestRepository.create(base, POLICY);
  }

  private KernelCodeExecutionEngine engine(List<String> interpreter) {
    return KernelCodeExecutionEngine.of(repo.kernel(bwrap), repo.repository, interpreter);
  }

  @Test
  void codeRunsInTheSandboxAndItsOutputIsTheResult() {
    assertThat(engine(List.of("python3", "-")).execute("print(6 * 7)")).isEqualTo("42\n");
  }

  @Test
  void theSandboxHoldsForTheCodeNoWriteOutsideTheScopeAndNoNetwork() throws IOException {
    String code = """
        import socket
        try:
            open('a.txt', 'w').write('changed')
            print('wrote')
        except OSError as e:
            print('write refused')
        try:
            socket.create_connection(('1.1.1.1', 53), timeout=2)
            print('connected')
        except OSError as e:
            print('network refused')
        """;

    String result = engine(List.of("python3", "-")).execute(code);

    assertThat(result).contains("write refused").contains("network refused").doesNotContain("wrote").doesNotContain("connected");
    assertThat(repo.repository.resolve("a.txt")).hasContent("alpha");
  }

  @Test
  void anInterpreterCommandThePolicyDoesNotAllowIsADenialAndNothingRuns() throws IOException {
    JsonNode denial = JSON.readTree(engine(List.of("python3", "-c", "print(1)")).execute("print(2)"));

    assertThat(denial.get("status").asText()).as(denial.toString()).isEqualTo("DENIED");
    assertThat(denial.get("layer").asText()).isEqualTo("operator");
    assertThat(denial.get("reason").asText()).isNotBlank();
  }

  @Test
  void failingCodeReturnsTheExitCodeAndErrorOutput() throws IOException {
    JsonNode failed = JSON.readTree(engine(List.of("python3", "-")).execute("raise SystemExit('boom')"));

    assertThat(failed.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(failed.get("exitCode").asInt()).isEqualTo(1);
    assertThat(failed.get("stderr").asText()).contains("boom");
  }

  @Test
  void codeLargerThanTheBoundIsRefusedBeforeAnythingRuns() throws IOException {
    JsonNode refused = JSON.readTree(engine(List.of("python3", "-")).execute("#" + "x".repeat(AgentTools.MAX_ARGUMENTS_BYTES)));

    assertThat(refused.at("/error/code").asText()).isEqualTo(AgentToolCodes.ARGUMENTS_TOO_LARGE);
    assertThat(repo.ledgerFile()).isEmpty();
  }
}
