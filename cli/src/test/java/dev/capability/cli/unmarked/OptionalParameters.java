package dev.capability.cli.unmarked;

import java.util.Optional;

/**
 * Public API shapes for the architecture rules to judge. This package has no {@code @NullMarked}
 * package-info, so the nullness rule must refuse it too.
 */
public final class OptionalParameters {
  private OptionalParameters() {}

  /** A public method taking an Optional: the rule must refuse it. */
  public static String orDefault(Optional<String> value) {
    return value.orElse("default");
  }

  /** A record whose canonical constructor takes its Optional component: allowed. */
  public record OptionalComponent(Optional<String> value) {}

  /** A record with a hand-written constructor taking an Optional: the rule must refuse it. */
  public record SecondaryConstructor(Optional<String> value, int count) {
    public SecondaryConstructor(Optional<String> value) {
      this(value, 0);
    }
  }
}
