package dev.capability.junit5;

import static dev.capability.junit5.CapabilityAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.ledger.EntrySummary;
import dev.capability.ledger.LedgerQuery;
import dev.capability.ledger.LedgerReader;
import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Test classes that use the extension as a project would, run by {@link CapabilitySandboxTest}
 * through the engine test kit, which then asserts how each ended. Some fail on purpose.
 */
final class SandboxSamples {
  /** The resource policy: {@code touch} of {@code src/allowed.txt} and {@code src/notes.md}, writes only to {@code src/*.txt}. */
  static final String TOUCH_POLICY = "policies/touch-src.json";

  /** The touch policy with the host network, which the process backend (no network namespace) needs. */
  static final String TOUCH_ON_THE_HOST_NETWORK = """
      {"version": 1, "network": "host", "projectWrites": "scoped", "writeScopes": ["src/*.txt"],
       "environment": {"inherit": ["PATH"]}, "executables": {"touch": {"name": "touch", "exact": [["src/allowed.txt"]]}}}
      """;

  /** An inline policy that allows no command at all. */
  static final String NOTHING_ALLOWED = """
      {"version": 1, "network": "none", "executables": {}}
      """;

  /** What the samples saw, by test name, for the outer test to check after they ran. */
  static final Map<String, List<EntrySummary>> LEDGERS = new ConcurrentHashMap<>();

  /** Whether each sample's ledger verified intact, by test name. */
  static final Map<String, Boolean> INTACT = new ConcurrentHashMap<>();

  /** Paths the samples saw, by name. */
  static final Map<String, Path> PATHS = new ConcurrentHashMap<>();

  private SandboxSamples() {}

  static ExecutionRequest touch(Path repository, String file) {
    return ExecutionRequest.argv("touch", file).repository(repository).build();
  }

  @ExtendWith(OnlyUnderTestKit.class)
  @CapabilitySandbox(policy = TOUCH_POLICY)
  static class AllowedCommand {
    @Test
    void touchInsideTheScopeCompletes(CommandKernel kernel, @SandboxRepository Path repository) {
      ExecutionResult result = kernel.execute(touch(repository, "src/allowed.txt"));

      assertThat(result).wasAllowed().byLayer("operator").exitedWith(0).wroteOnly("src/*.txt").hasNoViolations();
      assertThat(repository.resolve("src/allowed.txt")).isRegularFile();
      assertThat(result.attestation().backend().id()).isEqualTo("bwrap");
      assertThat(Git.git(repository, "rev-list", "--count", "HEAD").strip()).isEqualTo("1");
    }
  }

  @ExtendWith(OnlyUnderTestKit.class)
  @CapabilitySandbox(policy = TOUCH_POLICY)
  static class PrivateFiles {
    @Test
    void recordsWhereThePolicyAndTheRepositoryAre(CommandKernel kernel, @SandboxRepository Path repository) throws IOException {
      Path policy = Path.of(kernel.policy().source());
      PATHS.put("policy", policy);
      PATHS.put("repository", repository);
      assertThat(policy).isAbsolute().isRegularFile();
      assertThat(policy.startsWith(repository)).as("the policy file is outside the repository").isFalse();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(policy))).isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(policy.getParent()))).isEqualTo("rwx------");
      assertThat(Files.readString(policy)).contains("\"src/*.txt\"");
    }
  }

  @ExtendWith(OnlyUnderTestKit.class)
  @CapabilitySandbox(policy = TOUCH_POLICY)
  static class DeniedCommand {
    @Test
    void anArgumentThePolicyDoesNotListIsDeniedByTheOperator(CommandKernel kernel, @SandboxRepository Path repository) {
      assertThat(kernel.execute(touch(repository, "src/other.txt"))).wasDenied().byLayer("operator");
      assertThat(kernel.execute(ExecutionRequest.argv("rm", "-rf", ".").repository(repository).build()))
          .wasDenied().byLayer("operator");
      assertThat(repository.resolve("src")).doesNotExist();
    }
  }

  @ExtendWith(OnlyUnderTestKit.class)
  @CapabilitySandbox(policy = TOUCH_POLICY)
  static class WriteOutsideTheScope {
    @Test
    void touchOfAFileTheScopeExcludes(CommandKernel kernel, @SandboxRepository Path repository) {
      // src/ is a writable root of src/*.txt, so the sandbox lets the write happen; the audit sees it.
      assertThat(kernel.execute(touch(repository, "src/notes.md"))).exitedWith(0);
    }

    @Test
    @CapabilitySandbox(policy = TOUCH_POLICY, failOnWriteViolations = false)
    void theSameWriteWithTheCheckOffIsTheTestsToAssert(CommandKernel kernel, @SandboxRepository Path repository) {
      ExecutionResult result = kernel.execute(touch(repository, "src/notes.md"));

      assertThat(result.attestation().violations()).singleElement()
          .satisfies(v -> assertThat(v.path()).isEqualTo("src/notes.md"));
    }
  }

  @ExtendWith(OnlyUnderTestKit.class)
  @CapabilitySandbox(policy = NOTHING_ALLOWED)
  static class MethodOverridesClass {
    @Test
    void theClassPolicyDeniesTouch(CommandKernel kernel, @SandboxRepository Path repository) {
      assertThat(kernel.execute(touch(repository, "src/allowed.txt"))).wasDenied().byLayer("operator");
    }

    @Test
    @CapabilitySandbox(policy = TOUCH_POLICY)
    void theMethodPolicyAllowsIt(CommandKernel kernel, @SandboxRepository Path repository) {
      assertThat(kernel.execute(touch(repository, "src/allowed.txt"))).exitedWith(0);
    }
  }

  @ExtendWith(OnlyUnderTestKit.class)
  @CapabilitySandbox(policy = TOUCH_POLICY)
  static class PerTestLedger {
    @Test
    void first(CommandKernel kernel, @SandboxRepository Path repository, LedgerReader ledger) {
      kernel.execute(touch(repository, "src/allowed.txt"));
      kernel.execute(touch(repository, "src/other.txt"));
      LEDGERS.put("first", ledger.list(LedgerQuery.latest(100)));
      INTACT.put("first", ledger.verify().intact());
    }

    @Test
    void second(CommandKernel kernel, @SandboxRepository Path repository, LedgerReader ledger) {
      kernel.execute(touch(repository, "src/allowed.txt"));
      LEDGERS.put("second", ledger.list(LedgerQuery.latest(100)));
    }
  }

  @ExtendWith(OnlyUnderTestKit.class)
  @CapabilitySandbox(policy = TOUCH_POLICY)
  static class EnclosingClass {
    @Nested
    class Inner {
      @Test
      void usesTheEnclosingClasssPolicy(CommandKernel kernel, @SandboxRepository Path repository) {
        assertThat(kernel.execute(touch(repository, "src/allowed.txt"))).exitedWith(0);
      }
    }
  }

  @ExtendWith({OnlyUnderTestKit.class, CapabilitySandboxExtension.class})
  static class NotAnnotated {
    @Test
    void asksForAKernel(CommandKernel kernel) {
      kernel.policy();
    }
  }

  @ExtendWith(OnlyUnderTestKit.class)
  @CapabilitySandbox(policy = TOUCH_ON_THE_HOST_NETWORK, backend = "process")
  static class ProcessBackend {
    @Test
    void runsOnTheNamedBackend(CommandKernel kernel, @SandboxRepository Path repository) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv("touch", "src/allowed.txt").repository(repository).backend("process").build());

      assertThat(result).exitedWith(0).wroteOnly("src/*.txt");
      assertThat(result.attestation().backend().id()).isEqualTo("process");
    }
  }

  @ExtendWith(OnlyUnderTestKit.class)
  @CapabilitySandbox(policy = TOUCH_POLICY, backend = NeverAvailableBackendProvider.ID)
  static class MissingBackend {
    @Test
    void needsTheBackend(CommandKernel kernel) {
      kernel.policy();
    }
  }

  @ExtendWith(OnlyUnderTestKit.class)
  @CapabilitySandbox(policy = TOUCH_POLICY, backend = "no-such-backend")
  static class UnknownBackend {
    @Test
    void namesABackendNobodyInstalled(CommandKernel kernel) {
      kernel.policy();
    }
  }

  @ExtendWith(OnlyUnderTestKit.class)
  static class BadPolicies {
    @Test
    @CapabilitySandbox(policy = "policies/does-not-exist.json")
    void aResourceThatIsNotThere(CommandKernel kernel) {
      kernel.policy();
    }

    @Test
    @CapabilitySandbox(policy = "{\"version\": 1, \"network\": \"sometimes\"}")
    void anInvalidInlinePolicy(CommandKernel kernel) {
      kernel.policy();
    }
  }

  @ExtendWith(OnlyUnderTestKit.class)
  @CapabilitySandbox(policy = TOUCH_POLICY)
  static class Runtime {
    @Test
    void theRuntimeRunsOnTheChildJvmExecutor(CapabilityRuntime runtime) {
      assertThat(runtime.executor().id()).isEqualTo("child-jvm");
    }
  }
}
