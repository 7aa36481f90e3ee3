package dev.capability.backend.tck;

import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.util.Set;

/**
 * Parts of the suite bound to {@link PlainProcessBackend}, honest or broken, for {@link
 * SuiteCatchesBrokenBackendsTest} to run. Not tests by themselves: the name keeps surefire away.
 */
final class PlainBackendContracts {
  private PlainBackendContracts() {}

  /** The isolation attacks against a plain child process that claims nothing. */
  static class HonestIsolation implements IsolationContract {
    @Override
    public ExecutionBackend backend() {
      return PlainProcessBackend.honest();
    }
  }

  /** The isolation attacks against a plain child process that claims every capability. */
  static class OverclaimingIsolation implements IsolationContract {
    @Override
    public ExecutionBackend backend() {
      return PlainProcessBackend.claimingEverything();
    }
  }

  static class HonestTermination implements TerminationContract {
    @Override
    public ExecutionBackend backend() {
      return PlainProcessBackend.honest();
    }
  }

  static class OverclaimingTermination implements TerminationContract {
    @Override
    public ExecutionBackend backend() {
      return PlainProcessBackend.claimingEverything();
    }
  }

  /** The resource attacks against a plain child process that claims every capability. */
  static class OverclaimingResources implements ResourceContract {
    @Override
    public ExecutionBackend backend() {
      return PlainProcessBackend.claimingEverything();
    }
  }

  static class HonestBaseline implements BaselineContract {
    @Override
    public ExecutionBackend backend() {
      return PlainProcessBackend.honest();
    }
  }

  static class EnvironmentLeakingBaseline implements BaselineContract {
    @Override
    public ExecutionBackend backend() {
      return new PlainProcessBackend(Set.of(), PlainProcessBackend.Flaw.INHERITS_ENVIRONMENT);
    }
  }

  static class ShellBaseline implements BaselineContract {
    @Override
    public ExecutionBackend backend() {
      return new PlainProcessBackend(Set.of(), PlainProcessBackend.Flaw.RUNS_THROUGH_A_SHELL);
    }
  }

  /** The whole suite against a backend whose probe says it cannot run here. */
  static class Unavailable extends ExecutionBackendContract {
    private static final BackendGate GATE =
        new BackendGate(
            new BackendGateTest.CountingProvider(false), BackendConfig.defaults(), false);

    @Override
    public ExecutionBackend backend() {
      return GATE.backend();
    }
  }
}
