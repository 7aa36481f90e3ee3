package dev.capability.capability.runtime.internal.manifest;

import com.google.re2j.Pattern;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;

/**
 * Matches schema {@code pattern}s with RE2/J, whose time is linear in the text for a given
 * pattern, instead of {@code java.util.regex}, which backtracks ({@code ^(.*a){20}$} against 36
 * {@code a}s runs for minutes). Each match is charged to the {@link ValidationBudget} of the
 * validation running on this thread, as pattern length times text length.
 */
final class Re2Patterns implements RegularExpressionFactory {
  /** The longest pattern accepted, in characters. */
  static final int MAX_PATTERN = 1024;
  static final Re2Patterns INSTANCE = new Re2Patterns();

  private Re2Patterns() {}

  /**
   * Compiles {@code pattern} as RE2 syntax.
   *
   * @throws com.google.re2j.PatternSyntaxException for what RE2 cannot express (backreferences,
   *     lookaround) or a pattern longer than {@link #MAX_PATTERN}
   */
  static Pattern compile(String pattern) {
    if (pattern.length() > MAX_PATTERN) {
      throw new com.google.re2j.PatternSyntaxException("longer than " + MAX_PATTERN + " characters", pattern.substring(0, 32) + "...");
    }
    return Pattern.compile(pattern);
  }

  @Override
  public RegularExpression getRegularExpression(String regex) {
    Pattern pattern = compile(regex);
    long weight = Math.max(1, regex.length());
    return text -> {
      ValidationBudget.charge(weight * Math.max(1, text.length()));
      return pattern.matcher(text).find();
    };
  }
}
