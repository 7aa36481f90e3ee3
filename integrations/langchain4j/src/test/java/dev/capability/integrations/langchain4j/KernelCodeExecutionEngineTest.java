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

/**
 * The code execution engine: Perl on standard input (perl-base is part of every Debian and Ubuntu
 * system, as CI's), through the kernel, under bwrap; the sandbox's bounds hold for the code.
 */
class KernelCodeExecutionEngineTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The engine's policy: exactly {@code perl -}, no network, writes only under {@code docs/}. */
  private static final String POLICY = """
      {"version": 1, "timeoutMillis": 60000, "maxOutputBytes": 1048576, "network": "none", "projectWrites": "scoped", "writeScopes": ["docs/**"],
       "environment": {"inherit": ["PATH"]},
       "executables": {"perl": {"name": "perl", "exact": [["-"]]}}}
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
    if (!Files.isExecutable(Path.of("/usr/bin/perl"))) {
      RequiredBackends.skipOrFail("the code engine's tests run /usr/bin/perl, which is missing");
    }
    repo = TestRepository.create(base, POLICY);
  }

  private KernelCodeExecutionEngine engine(List<String> interpreter) {
    return KernelCodeExecutionEngine.of(repo.kernel(bwrap), repo.repository, interpreter);
  }

  @Test
  void codeRunsInTheSandboxAndItsOutputIsTheResult() {
    assertThat(engine(List.of("perl", "-")).execute("print 6 * 7, \"\\n\";")).isEqualTo("42\n");
  }

  @Test
  void theSandboxHoldsForTheCodeNoWriteOutsideTheScopeAndNoNetwork() throws IOException {
    String code = """
        use IO::Socket::INET;
        if (open(my $f, '>>', 'a.txt')) { print $f "changed\\n"; close($f) ? print "wrote\\n" : print "write refused\\n"; }
        else { print "write refused\\n"; }
        my $socket = IO::Socket::INET->new(PeerAddr => '1.1.1.1', PeerPort => 53, Proto => 'tcp', Timeout => 2);
        print $socket ? "connected\\n" : "network refused\\n";
        """;

    String result = engine(List.of("perl", "-")).execute(code);

    assertThat(result).contains("write refused").contains("network refused").doesNotContain("wrote").doesNotContain("connected");
    assertThat(repo.repository.resolve("a.txt")).hasContent("alpha");
  }

  @Test
  void anInterpreterCommandThePolicyDoesNotAllowIsADenialAndNothingRuns() throws IOException {
    JsonNode denial = JSON.readTree(engine(List.of("perl", "-e", "print 1")).execute("print 2"));

    assertThat(denial.get("status").asText()).as(denial.toString()).isEqualTo("DENIED");
    assertThat(denial.get("layer").asText()).isEqualTo("operator");
    assertThat(denial.get("reason").asText()).isNotBlank();
  }

  @Test
  void failingCodeReturnsTheExitCodeAndErrorOutput() throws IOException {
    JsonNode failed = JSON.readTree(engine(List.of("perl", "-")).execute("die 'boom';"));

    assertThat(failed.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(failed.get("exitCode").asInt()).isNotZero();
    assertThat(failed.get("stderr").asText()).contains("boom");
  }

  @Test
  void codeLargerThanTheBoundIsRefusedBeforeAnythingRuns() throws IOException {
    JsonNode refused = JSON.readTree(engine(List.of("perl", "-")).execute("#" + "x".repeat(AgentTools.MAX_ARGUMENTS_BYTES)));

    assertThat(refused.at("/error/code").asText()).isEqualTo(AgentToolCodes.ARGUMENTS_TOO_LARGE);
    assertThat(repo.ledgerFile()).isEmpty();
  }
}
