package dev.capability.junit5.internal;

import dev.capability.junit5.CapabilitySandbox;
import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/** The {@link CapabilitySandbox} that applies to a test: the method's, else its class's or an enclosing class's. */
public final class SandboxSettings {
  private SandboxSettings() {}

  public static Optional<CapabilitySandbox> of(ExtensionContext context) {
    Optional<CapabilitySandbox> onMethod = find(context.getTestMethod().orElse(null));
    if (onMethod.isPresent()) {
      return onMethod;
    }
    for (Class<?> type = context.getTestClass().orElse(null); type != null; type = type.getEnclosingClass()) {
      Optional<CapabilitySandbox> onType = find(type);
      if (onType.isPresent()) {
        return onType;
      }
    }
    return Optional.empty();
  }

  private static Optional<CapabilitySandbox> find(AnnotatedElement element) {
    return element == null ? Optional.empty() : AnnotationSupport.findAnnotation(element, CapabilitySandbox.class);
  }
}
