package dev.capability.junit5;

import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.junit5.internal.Sandbox;
import dev.capability.junit5.internal.SandboxSettings;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.ledger.LedgerReader;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.AssertionFailedError;

/**
 * The extension {@link CapabilitySandbox} registers; a test does not name it. Before each test it
 * opens the test's sandbox, resolves the test's parameters from it, fails the test after it ran
 * when an execution violated its write scope, and leaves the sandbox in the test's store, which
 * closes it when the test is done. Public only because JUnit creates it reflectively.
 */
public final class CapabilitySandboxExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(CapabilitySandboxExtension.class);

  /** For JUnit, which creates the extension when it meets {@link CapabilitySandbox}. */
  public CapabilitySandboxExtension() {}

  @Override
  public void beforeEach(ExtensionContext context) {
    Optional<CapabilitySandbox> settings = SandboxSettings.of(context);
    if (settings.isEmpty()) {
      return;
    }
    ClassLoader loader = context.getRequiredTestClass().getClassLoader();
    Sandbox sandbox = Sandbox.open(settings.get(), loader, requireBackends(context));
    context.getStore(NAMESPACE).put(Sandbox.class, sandbox);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    Sandbox sandbox = context.getStore(NAMESPACE).get(Sandbox.class, Sandbox.class);
    if (sandbox == null || !sandbox.failOnWriteViolations()) {
      return;
    }
    Optional<String> violations = sandbox.writeScopeViolations();
    if (violations.isPresent()) {
      throw new AssertionFailedError(violations.get());
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == CommandKernel.class
        || type == CapabilityRuntime.class
        || type == LedgerReader.class
        || (type == Path.class && parameter.isAnnotated(SandboxRepository.class));
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Sandbox sandbox = context.getStore(NAMESPACE).get(Sandbox.class, Sandbox.class);
    if (sandbox == null) {
      throw new ParameterResolutionException("a " + parameter.getParameter().getType().getSimpleName()
          + " from @CapabilitySandbox exists only for a test method and its @BeforeEach and @AfterEach methods, when the"
          + " test method or its class carries @CapabilitySandbox; there is none for " + parameter.getDeclaringExecutable());
    }
    Class<?> type = parameter.getParameter().getType();
    if (type == CommandKernel.class) {
      return sandbox.kernel();
    }
    if (type == CapabilityRuntime.class) {
      return sandbox.runtime();
    }
    if (type == LedgerReader.class) {
      return sandbox.ledgerReader();
    }
    return sandbox.repository();
  }

  /** The configuration parameter when it is set, else the environment variable. */
  private static boolean requireBackends(ExtensionContext context) {
    return context.getConfigurationParameter(CapabilitySandbox.REQUIRE_BACKENDS_PARAMETER)
        .map(value -> Boolean.parseBoolean(value.strip()))
        .orElseGet(() -> "1".equals(System.getenv(CapabilitySandbox.REQUIRE_BACKENDS_VARIABLE)));
  }
}
