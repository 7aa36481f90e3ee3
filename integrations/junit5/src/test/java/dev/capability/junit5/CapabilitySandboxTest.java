package dev.capability.junit5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.testkit.engine.EventConditions.abortedWithReason;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.PolicyException;
import dev.capability.ledger.EntrySummary;
import dev.capability.ledger.RecordKind;
import dev.capability.testing.RequiredBackends;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Runs the {@link SandboxSamples} through the engine test kit, as a project's build runs its
 * tests, and asserts how each ended: the extension's behaviour is what a test author sees.
 */
class CapabilitySandboxTest {

  @BeforeAll
  static void needsBwrap() {
    BwrapBackendProviderGate.require();
  }

  @Test
  void anAllowedCommandRunsInBwrapInAFreshRepositoryAndTheTestPasses() {
    Events tests = run(Map.of(), selectClass(SandboxSamples.AllowedCommand.class));

    tests.assertStatistics(stats -> stats.started(1).succeeded(1).failed(0));
  }

  @Test
  void thePolicyIsAPrivateFileOutsideTheRepositoryAndBothAreGoneAfterTheTest() {
    SandboxSamples.PATHS.clear();
    Events tests = run(Map.of(), selectClass(SandboxSamples.PrivateFiles.class));

    tests.assertStatistics(stats -> stats.started(1).succeeded(1));
    assertThat(SandboxSamples.PATHS.get("policy")).doesNotExist();
    assertThat(SandboxSamples.PATHS.get("repository")).doesNotExist();
  }

  @Test
  void aDeniedCommandAssertedAsDeniedByTheOperatorPasses() {
    Events tests = run(Map.of(), selectClass(SandboxSamples.DeniedCommand.class));

    tests.assertStatistics(stats -> stats.started(1).succeeded(1).failed(0));
  }

  @Test
  void aCommandThatWroteOutsideItsWriteScopeFailsTheTestWithTheAttestation() {
    Events tests = run(Map.of(), selectMethod(SandboxSamples.WriteOutsideTheScope.class, "touchOfAFileTheScopeExcludes",
        "dev.capability.kernel.core.CommandKernel, java.nio.file.Path"));

    tests.assertStatistics(stats -> stats.started(1).failed(1));
    tests.assertThatEvents().haveExactly(1, event(test("touchOfAFileTheScopeExcludes"), finishedWithFailure(
        instanceOf(AssertionFailedError.class),
        message(m -> m.contains("changed paths outside the write scope")
            && m.contains("touch src/notes.md")
            && m.contains("src/notes.md (CREATED): layer operator")
            && m.contains("attestation: {")
            && m.contains("\"violations\":[{")
            && m.contains("\"kernelVersion\"")))));
  }

  @Test
  void aTestThatSwitchesTheCheckOffSeesTheViolationAndPasses() {
    Events tests = run(Map.of(), selectMethod(SandboxSamples.WriteOutsideTheScope.class, "theSameWriteWithTheCheckOffIsTheTestsToAssert",
        "dev.capability.kernel.core.CommandKernel, java.nio.file.Path"));

    tests.assertStatistics(stats -> stats.started(1).succeeded(1));
  }

  @Test
  void aMethodsAnnotationReplacesItsClasss() {
    Events tests = run(Map.of(), selectClass(SandboxSamples.MethodOverridesClass.class));

    tests.assertStatistics(stats -> stats.started(2).succeeded(2));
  }

  @Test
  void eachTestRecordsItsExecutionsInALedgerOfItsOwn() {
    SandboxSamples.LEDGERS.clear();
    SandboxSamples.INTACT.clear();
    Events tests = run(Map.of(), selectClass(SandboxSamples.PerTestLedger.class));

    tests.assertStatistics(stats -> stats.started(2).succeeded(2));
    List<EntrySummary> first = SandboxSamples.LEDGERS.get("first");
    assertThat(first).filteredOn(e -> e.kind() == RecordKind.EXECUTION)
        .extracting(EntrySummary::argv, EntrySummary::status)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(List.of("touch", "src/allowed.txt"), "COMPLETED"),
            org.assertj.core.groups.Tuple.tuple(List.of("touch", "src/other.txt"), "DENIED"));
    assertThat(SandboxSamples.LEDGERS.get("second")).filteredOn(e -> e.kind() == RecordKind.EXECUTION)
        .extracting(EntrySummary::argv)
        .containsExactly(List.of("touch", "src/allowed.txt"));
    assertThat(SandboxSamples.INTACT).containsEntry("first", true);
  }

  @Test
  void theNamedBackendIsTheOneTheKernelRunsOn() {
    Events tests = run(Map.of(), selectClass(SandboxSamples.ProcessBackend.class));

    tests.assertStatistics(stats -> stats.started(1).succeeded(1));
  }

  @Test
  void aNestedClassUsesItsEnclosingClasssAnnotation() {
    Events tests = run(Map.of(), selectClass(SandboxSamples.EnclosingClass.Inner.class));

    tests.assertStatistics(stats -> stats.started(1).succeeded(1));
  }

  @Test
  void aParameterOutsideASandboxIsRefusedSayingWhere() {
    Events tests = run(Map.of(), selectClass(SandboxSamples.NotAnnotated.class));

    tests.assertStatistics(stats -> stats.started(1).failed(1));
    tests.assertThatEvents().haveExactly(1, event(test("asksForAKernel"), finishedWithFailure(
        instanceOf(ParameterResolutionException.class),
        message(m -> m.contains("a CommandKernel from @CapabilitySandbox exists only for") && m.contains("asksForAKernel")))));
  }

  @Test
  void aBackendThatCannotRunHereSkipsTheTestWithItsReason() {
    Events tests = run(Map.of(CapabilitySandbox.REQUIRE_BACKENDS_PARAMETER, "false"), selectClass(SandboxSamples.MissingBackend.class));

    tests.assertStatistics(stats -> stats.started(1).aborted(1));
    tests.assertThatEvents().haveExactly(1, event(test("needsTheBackend"), abortedWithReason(
        instanceOf(TestAbortedException.class),
        message(m -> m.contains("backend never-available is not available here: " + NeverAvailableBackendProvider.REASON)
            && m.contains("CAPABILITY_REQUIRE_BACKENDS=1")))));
  }

  @Test
  void aBackendThatCannotRunHereFailsTheTestWhenBackendsAreRequired() {
    Events tests = run(Map.of(CapabilitySandbox.REQUIRE_BACKENDS_PARAMETER, "true"), selectClass(SandboxSamples.MissingBackend.class));

    tests.assertStatistics(stats -> stats.started(1).failed(1));
    tests.assertThatEvents().haveExactly(1, event(test("needsTheBackend"), finishedWithFailure(
        instanceOf(AssertionFailedError.class),
        message(m -> m.contains(NeverAvailableBackendProvider.REASON) && m.contains("requires it")))));
  }

  @Test
  void aBackendNobodyInstalledIsAConfigurationErrorNotASkip() {
    Events tests = run(Map.of(CapabilitySandbox.REQUIRE_BACKENDS_PARAMETER, "false"), selectClass(SandboxSamples.UnknownBackend.class));

    tests.assertStatistics(stats -> stats.started(1).failed(1).aborted(0));
    tests.assertThatEvents().haveExactly(1, event(test("namesABackendNobodyInstalled"), finishedWithFailure(
        instanceOf(CapabilityException.class),
        message(m -> m.contains("'no-such-backend', which is not installed") && m.contains("bwrap") && m.contains("process")))));
    assertThat(codeOfTheFailure(tests)).isEqualTo(SandboxCodes.SANDBOX_BACKEND_UNKNOWN);
  }

  @Test
  void aMissingPolicyResourceAndAnInvalidInlinePolicyFailTheirTests() {
    Events tests = run(Map.of(), selectClass(SandboxSamples.BadPolicies.class));

    tests.assertStatistics(stats -> stats.started(2).failed(2));
    tests.assertThatEvents().haveExactly(1, event(test("aResourceThatIsNotThere"), finishedWithFailure(
        instanceOf(CapabilityException.class),
        message(m -> m.contains("policies/does-not-exist.json") && m.contains("does not find")))));
    tests.assertThatEvents().haveExactly(1, event(test("anInvalidInlinePolicy"), finishedWithFailure(
        instanceOf(PolicyException.class))));
  }

  @Test
  void aCapabilityRuntimeIsInjectedOnTheChildJvmExecutor() {
    Events tests = run(Map.of(), selectClass(SandboxSamples.Runtime.class));

    tests.assertStatistics(stats -> stats.started(1).succeeded(1));
  }

  private static Events run(Map<String, String> parameters, DiscoverySelector selector) {
    return EngineTestKit.engine("junit-jupiter")
        .configurationParameter(OnlyUnderTestKit.PARAMETER, "true")
        .configurationParameters(parameters)
        .selectors(selector)
        .execute()
        .testEvents();
  }

  private static String codeOfTheFailure(Events tests) {
    Throwable thrown = tests.failed().stream().findFirst().orElseThrow()
        .getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class).getThrowable().orElseThrow();
    return ((CapabilityException) thrown).code();
  }

  /** The samples need bwrap: without it this class is skipped, or fails when backends are required. */
  private static final class BwrapBackendProviderGate {
    static void require() {
      var availability = new BwrapBackendProvider().probe();
      if (!availability.available()) {
        RequiredBackends.skipOrFail("backend bwrap is not available here: " + availability.reason());
      }
    }
  }
}
