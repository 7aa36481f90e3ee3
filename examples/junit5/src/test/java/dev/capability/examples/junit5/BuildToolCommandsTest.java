package dev.capability.examples.junit5;

// junit5-example-imports:start
import static dev.capability.junit5.CapabilityAssertions.assertThat;

import dev.capability.junit5.CapabilitySandbox;
import dev.capability.junit5.SandboxRepository;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.core.CommandKernel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
// junit5-example-imports:end

/**
 * What a project's own tests look like with the extension: the commands a build tool may run,
 * under the operator policy {@code src/test/resources/policies/build-tool.json}, each test in a
 * fresh repository on Bubblewrap with its executions in a ledger of its own. docs/integrations.md
 * quotes this file.
 */
// junit5-example:start
@CapabilitySandbox(policy = "policies/build-tool.json", backend = "bwrap")
class BuildToolCommandsTest {

  @Test
  void statusIsAllowedAndWritesNothing(CommandKernel kernel, @SandboxRepository Path repository) {
    ExecutionResult status = kernel.execute(ExecutionRequest.argv("git", "status", "--short").repository(repository).build());

    assertThat(status).wasAllowed().byLayer("operator").completed().wroteNothing();
  }

  @Test
  void logIsNotInThePolicy(CommandKernel kernel, @SandboxRepository Path repository) {
    ExecutionResult log = kernel.execute(ExecutionRequest.argv("git", "log").repository(repository).build());

    assertThat(log).wasDenied().byLayer("operator");
  }

  @Test
  void aReportGoesIntoTarget(CommandKernel kernel, @SandboxRepository Path repository) {
    ExecutionResult report = kernel.execute(ExecutionRequest.argv("touch", "target/report.txt").repository(repository).build());

    assertThat(report).exitedWith(0).wroteOnly("target/**");
  }
}
// junit5-example:end
