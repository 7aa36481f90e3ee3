package dev.capability.junit5;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.core.WritePaths;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on one {@link ExecutionResult}, created by {@link CapabilityAssertions#assertThat}.
 * Every failure names what was expected and shows the result's decision and its attestation as
 * JSON, which is what a reader needs to see why.
 */
public final class ExecutionResultAssert extends AbstractAssert<ExecutionResultAssert, ExecutionResult> {

  ExecutionResultAssert(ExecutionResult actual) {
    super(Objects.requireNonNull(actual, "actual"), ExecutionResultAssert.class);
  }

  /** The kernel refused the command before launch (status {@code DENIED}). */
  public ExecutionResultAssert wasDenied() {
    if (actual.status() != ExecutionStatus.DENIED) {
      throw failed("expected the command to be denied, but its status is " + actual.status());
    }
    return this;
  }

  /** Every layer allowed the command (it may still have failed, timed out or exited non-zero). */
  public ExecutionResultAssert wasAllowed() {
    if (!actual.decision().allowed()) {
      throw failed("expected the command to be allowed, but it was denied");
    }
    return this;
  }

  /** The decision, allowing or denying, was made by the authority layer {@code layer} (for example {@code operator} or {@code builtin}). */
  public ExecutionResultAssert byLayer(String layer) {
    Objects.requireNonNull(layer, "layer");
    if (!actual.decision().layer().equals(layer)) {
      throw failed("expected the decision of layer '" + layer + "', but layer '" + actual.decision().layer() + "' decided");
    }
    return this;
  }

  /** The decision was made by {@code rule} (for example {@code executables.git}). */
  public ExecutionResultAssert byRule(String rule) {
    Objects.requireNonNull(rule, "rule");
    if (!actual.decision().rule().equals(rule)) {
      throw failed("expected the decision of rule '" + rule + "', but rule '" + actual.decision().rule() + "' decided");
    }
    return this;
  }

  /** The decision's code is {@code code} (for example {@code FLAG_NOT_ALLOWED}, or {@code ALLOWED}). */
  public ExecutionResultAssert withCode(String code) {
    Objects.requireNonNull(code, "code");
    if (!actual.decision().code().equals(code)) {
      throw failed("expected the decision code " + code + ", but it is " + actual.decision().code());
    }
    return this;
  }

  /** The command ran and exited by itself (status {@code COMPLETED}), with any exit code. */
  public ExecutionResultAssert completed() {
    if (actual.status() != ExecutionStatus.COMPLETED) {
      throw failed("expected the command to complete, but its status is " + actual.status() + failureMessage());
    }
    return this;
  }

  /** The command ran, exited by itself, and with {@code exitCode}. */
  public ExecutionResultAssert exitedWith(int exitCode) {
    completed();
    if (actual.exitCode().isEmpty() || actual.exitCode().getAsInt() != exitCode) {
      throw failed("expected exit code " + exitCode + ", but it exited with " + actual.exitCode()
          + "; stderr: " + actual.stderr().text());
    }
    return this;
  }

  /** The run ended with {@code status}. */
  public ExecutionResultAssert hasStatus(ExecutionStatus status) {
    Objects.requireNonNull(status, "status");
    if (actual.status() != status) {
      throw failed("expected status " + status + ", but it is " + actual.status() + failureMessage());
    }
    return this;
  }

  /**
   * Every path the run changed in the repository (its attestation's {@code changes}) matches one
   * of {@code patterns}, write-scope patterns matched exactly as the kernel matches a write scope
   * ({@code src/**}, {@code target/*.jar}; wildcards skip hidden names). A run that changed
   * nothing passes.
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException {@code SCOPE_PATTERN_INVALID} for a pattern that is not one
   */
  public ExecutionResultAssert wroteOnly(String... patterns) {
    List<String> scope = List.copyOf(Arrays.asList(patterns));
    if (scope.isEmpty()) {
      throw new IllegalArgumentException("wroteOnly needs at least one pattern; use wroteNothing() for none");
    }
    scope.forEach(WritePaths::requireValidPattern);
    List<String> outside = actual.attestation().changes().stream()
        .map(Attestation.Change::path)
        .filter(path -> scope.stream().noneMatch(pattern -> WritePaths.matches(pattern, path)))
        .toList();
    if (!outside.isEmpty()) {
      throw failed("expected changes only in " + scope + ", but these are outside it: " + outside);
    }
    return this;
  }

  /** The run changed nothing in the repository. */
  public ExecutionResultAssert wroteNothing() {
    if (!actual.attestation().changes().isEmpty()) {
      throw failed("expected no changes, but the run changed "
          + actual.attestation().changes().stream().map(c -> c.path() + " (" + c.kind() + ")").toList());
    }
    return this;
  }

  /** The attestation lists no violation: no write outside the scope, no refused egress. */
  public ExecutionResultAssert hasNoViolations() {
    if (!actual.attestation().violations().isEmpty()) {
      throw failed("expected no violations, but the attestation lists "
          + actual.attestation().violations().stream().map(v -> v.path() + " (" + v.layer() + " " + v.rule() + ")").toList());
    }
    return this;
  }

  /** The standard output, as kept, contains {@code text}. */
  public ExecutionResultAssert stdoutContains(String text) {
    Objects.requireNonNull(text, "text");
    if (!actual.stdout().text().contains(text)) {
      throw failed("expected stdout to contain '" + text + "', but it is: " + actual.stdout().text());
    }
    return this;
  }

  private String failureMessage() {
    return actual.failureMessage() == null || actual.failureMessage().isEmpty() ? "" : " (" + actual.failureMessage() + ")";
  }

  private AssertionError failed(String expectation) {
    Decision decision = actual.decision();
    return failure("%s%n  command: %s%n  decision: %s by %s rule %s: %s%n  attestation: %s",
        expectation, actual.argv(), decision.code(), decision.layer(), decision.rule(), decision.message(),
        CanonicalJson.serialize(AttestationJson.toMap(actual.attestation())));
  }
}
