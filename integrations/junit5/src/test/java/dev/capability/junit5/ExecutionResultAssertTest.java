package dev.capability.junit5;

import static dev.capability.junit5.CapabilityAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.core.CommandKernel;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fluent assertions on real results from bwrap, and what their failures say. */
@CapabilitySandbox(policy = SandboxSamples.TOUCH_POLICY)
class ExecutionResultAssertTest {
  private ExecutionResult allowed;
  private ExecutionResult denied;

  @BeforeEach
  void runBoth(CommandKernel kernel, @SandboxRepository Path repository) {
    allowed = kernel.execute(SandboxSamples.touch(repository, "src/allowed.txt"));
    denied = kernel.execute(ExecutionRequest.argv("touch", "README").repository(repository).build());
  }

  @Test
  void aCompletedRunPassesItsAssertions() {
    assertThat(allowed).wasAllowed().byLayer("operator").byRule("executables.touch.exact[0]").withCode("ALLOWED")
        .completed().exitedWith(0).hasStatus(ExecutionStatus.COMPLETED)
        .wroteOnly("src/*.txt").wroteOnly("src/**", "docs/**").hasNoViolations();
  }

  @Test
  void aDeniedRunPassesItsAssertionsAndWroteNothing() {
    assertThat(denied).wasDenied().byLayer("operator").hasStatus(ExecutionStatus.DENIED).wroteNothing();
  }

  @Test
  void expectingADenialOfAnAllowedRunFailsShowingTheDecisionAndTheAttestation() {
    assertThatThrownBy(() -> assertThat(allowed).wasDenied())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("expected the command to be denied, but its status is COMPLETED")
        .hasMessageContaining("command: [touch, src/allowed.txt]")
        .hasMessageContaining("decision: ALLOWED by operator rule executables.touch.exact[0]")
        .hasMessageContaining("attestation: {")
        .hasMessageContaining("\"argv\":[\"touch\",\"src/allowed.txt\"]");
  }

  @Test
  void theWrongLayerFailsNamingTheLayerThatDecided() {
    assertThatThrownBy(() -> assertThat(denied).wasDenied().byLayer("builtin"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("expected the decision of layer 'builtin', but layer 'operator' decided");
  }

  @Test
  void writesOutsideTheGivenPatternsFailNamingThePaths() {
    assertThatThrownBy(() -> assertThat(allowed).wroteOnly("docs/**"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("expected changes only in [docs/**], but these are outside it: [src/allowed.txt]");
    assertThatThrownBy(() -> assertThat(allowed).wroteNothing())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("src/allowed.txt (CREATED)");
  }

  @Test
  void anotherExitCodeOrACompletionOfADenialFails() {
    assertThatThrownBy(() -> assertThat(allowed).exitedWith(1))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("expected exit code 1, but it exited with OptionalInt[0]");
    assertThatThrownBy(() -> assertThat(denied).completed())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("expected the command to complete, but its status is DENIED");
  }

  @Test
  void aPatternThatIsNotAWriteScopePatternIsMisuse() {
    assertThatThrownBy(() -> assertThat(allowed).wroteOnly("/abs/**"))
        .isInstanceOfSatisfying(AuthorityException.class, e -> org.assertj.core.api.Assertions.assertThat(e.code()).isEqualTo("SCOPE_PATTERN_INVALID"));
    assertThatThrownBy(() -> assertThat(allowed).wroteOnly())
        .isInstanceOf(IllegalArgumentException.class);
  }
}
