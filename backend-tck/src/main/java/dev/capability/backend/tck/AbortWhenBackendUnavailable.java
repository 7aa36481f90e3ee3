package dev.capability.backend.tck;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;
import org.opentest4j.TestAbortedException;

/**
 * Reports a property as aborted, like the suite's other tests, when the backend cannot run here
 * (see {@link BackendGate}). Without it, jqwik counts every try that the missing backend aborts as
 * rejected and reports the property as exhausted, which is a failure.
 */
final class AbortWhenBackendUnavailable implements AroundPropertyHook {

  @Override
  public PropertyExecutionResult aroundProperty(
      PropertyLifecycleContext context, PropertyExecutor property) {
    TestAbortedException unavailable = null;
    if (context.testInstance() instanceof BackendUnderTest target) {
      try {
        target.backend();
      } catch (TestAbortedException e) {
        unavailable = e;
      }
    }
    // jqwik offers no result without running the property; its tries abort at once here.
    PropertyExecutionResult result = property.execute();
    return unavailable == null ? result : result.mapToAborted(unavailable);
  }
}
