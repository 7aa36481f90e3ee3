package dev.capability.kernel.core.internal.pipeline;

import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.core.internal.audit.SecretScanner;

/**
 * Stage 9: what the command changed in the repository, which of those changes no layer allowed
 * (outside the effective write scope, or in a protected path), and secrets in what it produced
 * and printed. Runs whenever the command was launched, whatever its status: a command that timed out
 * may have written too.
 */
final class AuditStage implements Stage {
  private final SecretScanner scanner = new SecretScanner();

  @Override
  public void apply(ExecutionContext context) {
    CapturedOutput stdout = context.launch == null ? CapturedOutput.empty() : context.launch.stdout();
    CapturedOutput stderr = context.launch == null ? CapturedOutput.empty() : context.launch.stderr();
    if (context.snapshot == null) {
      context.secrets = scanner.scanOutput(stdout, stderr);
      return;
    }
    context.changes = context.snapshot.diff(context.snapshot.retake());
    context.violations = context.authority.violations(context.changes.paths());
    context.secrets = scanner.scan(context.snapshot.root(), context.changes, stdout, stderr);
  }
}
