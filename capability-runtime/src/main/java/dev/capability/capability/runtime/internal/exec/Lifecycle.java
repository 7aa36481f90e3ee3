package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.api.Capability;
import dev.capability.capability.api.CapabilityContext;
import dev.capability.capability.runtime.HookOutcome;
import dev.capability.capability.runtime.HookOutcome.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs one capability's lifecycle: {@code execute}, then {@code verify} when declared, then
 * {@code rollback} when declared and the forward step failed or was not verified. Every step gets
 * the same context, so a hook never holds more authority than the forward step.
 */
final class Lifecycle {
  private Lifecycle() {}

  /** What the lifecycle produced; {@code failure} is empty exactly when everything succeeded. */
  record Outcome(Optional<String> output, Optional<String> failure, List<HookOutcome> hooks) {
    Outcome {
      Objects.requireNonNull(output, "output");
      Objects.requireNonNull(failure, "failure");
      hooks = List.copyOf(hooks);
    }
  }

  static Outcome run(Capability capability, String input, CapabilityContext context, boolean verify, boolean rollback) {
    List<HookOutcome> hooks = new ArrayList<>();
    Optional<String> output = Optional.empty();
    Optional<String> failure;
    try {
      String result = capability.execute(input, context);
      if (result == null) {
        throw new IllegalStateException("execute returned null");
      }
      output = Optional.of(result);
      hooks.add(new HookOutcome("execute", Status.SUCCEEDED, ""));
      failure = verify ? verify(capability, input, result, context, hooks) : Optional.empty();
    } catch (RuntimeException | LinkageError e) {
      failure = Optional.of("execute failed: " + describe(e));
      hooks.add(new HookOutcome("execute", Status.FAILED, describe(e)));
    }
    if (failure.isPresent() && rollback) {
      try {
        capability.rollback(input, context);
        hooks.add(new HookOutcome("rollback", Status.ROLLED_BACK, ""));
      } catch (RuntimeException | LinkageError e) {
        hooks.add(new HookOutcome("rollback", Status.ROLLBACK_FAILED, describe(e)));
        failure = Optional.of(failure.get() + "; rollback failed: " + describe(e));
      }
    }
    return new Outcome(output, failure, hooks);
  }

  private static Optional<String> verify(
      Capability capability, String input, String output, CapabilityContext context, List<HookOutcome> hooks) {
    try {
      if (capability.verify(input, output, context)) {
        hooks.add(new HookOutcome("verify", Status.SUCCEEDED, ""));
        return Optional.empty();
      }
      hooks.add(new HookOutcome("verify", Status.FAILED, "verify answered false"));
      return Optional.of("the result was not verified");
    } catch (RuntimeException | LinkageError e) {
      hooks.add(new HookOutcome("verify", Status.FAILED, describe(e)));
      return Optional.of("verify failed: " + describe(e));
    }
  }

  static String describe(Throwable e) {
    return e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }
}
