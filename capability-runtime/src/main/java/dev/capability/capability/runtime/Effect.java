package dev.capability.capability.runtime;

import dev.capability.capability.runtime.internal.effects.ScopeGrammar;
import dev.capability.kernel.api.CapabilityException;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One effect with one bounded scope, for example {@code filesystem.write} on {@code notes}.
 *
 * <p>The constructor refuses malformed scopes ({@link CapabilityCodes#EFFECT_SCOPE_INVALID}) and
 * unbounded ones such as {@code /}, {@code ..}, {@code **} or {@code *:*} ({@link
 * CapabilityCodes#EFFECT_SCOPE_UNBOUNDED}); the grammar of each kind is in {@code
 * docs/capabilities.md}.
 */
public record Effect(EffectKind kind, String scope) implements Comparable<Effect> {
  private static final Comparator<Effect> ORDER =
      Comparator.comparing((Effect effect) -> effect.kind.id()).thenComparing(Effect::scope);

  public Effect {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(scope, "scope");
    ScopeGrammar.check(kind, scope);
  }

  /**
   * Parses a kind by name and a scope.
   *
   * @throws CapabilityException {@link CapabilityCodes#EFFECT_UNKNOWN} for a name outside the
   *     vocabulary, or a scope code
   */
  public static Effect of(String kind, String scope) {
    Objects.requireNonNull(kind, "kind");
    EffectKind known =
        EffectKind.fromId(kind)
            .orElseThrow(
                () ->
                    new CapabilityException(
                        CapabilityCodes.EFFECT_UNKNOWN,
                        "unknown effect '" + kind + "'; known: filesystem.read, filesystem.write,"
                            + " network.connect, process.spawn, secrets.read, database.write,"
                            + " email.send, git.mutate, code.dynamic"));
    return new Effect(known, scope);
  }

  /** The canonical JSON form bound into plans: {@code {"kind": ..., "scope": ...}}. */
  public Map<String, Object> toCanonical() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("kind", kind.id());
    map.put("scope", scope);
    return map;
  }

  @Override
  public int compareTo(Effect other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return kind.id() + "(" + scope + ")";
  }
}
