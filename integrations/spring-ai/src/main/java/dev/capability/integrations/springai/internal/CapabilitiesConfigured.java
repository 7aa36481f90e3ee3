package dev.capability.integrations.springai.internal;

import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code capability.capabilities} names at least one capability: only then is a
 * capability runtime built, since building one needs an isolating executor, which an application
 * that only runs commands may not have.
 */
public final class CapabilitiesConfigured extends SpringBootCondition {
  /** The property, a map from capability name to package directory. */
  public static final String PROPERTY = "capability.capabilities";

  /** Spring creates the condition. */
  public CapabilitiesConfigured() {}

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    ConditionMessage.Builder message = ConditionMessage.forCondition("CapabilitiesConfigured");
    Map<String, String> capabilities = Binder.get(context.getEnvironment())
        .bind(PROPERTY, Bindable.mapOf(String.class, String.class))
        .orElse(Map.of());
    if (capabilities.isEmpty()) {
      return ConditionOutcome.noMatch(message.didNotFind("property").items(PROPERTY + "[NAME]"));
    }
    return ConditionOutcome.match(message.found(PROPERTY).items(capabilities.keySet()));
  }
}
