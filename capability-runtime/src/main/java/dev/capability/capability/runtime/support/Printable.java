package dev.capability.capability.runtime.support;

import dev.capability.capability.runtime.internal.effects.ScopeGrammar;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Messages that quote untrusted documents (parser errors repeat the offending token) reach
 * terminals; control and format characters are replaced so a document cannot send escape
 * sequences or reorder text on the operator's screen.
 */
public final class Printable {
  private static final Pattern UNPRINTABLE = Pattern.compile("[\\p{Cc}\\p{Cf}]");

  private Printable() {}

  /** {@code text} with each control and format character replaced by {@code ?}; {@code ""} for null. */
  public static String of(@Nullable String text) {
    return text == null ? "" : UNPRINTABLE.matcher(text).replaceAll("?");
  }

  /**
   * {@code text} cut to 200 code points, each control and format character written as a Java
   * Unicode escape: how the runtime quotes untrusted names (effect scopes, JSON members, URLs).
   */
  public static String escaped(String text) {
    return ScopeGrammar.printable(text);
  }
}
