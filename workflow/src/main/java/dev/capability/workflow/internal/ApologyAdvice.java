package dev.capability.workflow.internal;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Recognises a message that reads like an admission of a mistake. Reads nothing, records nothing. */
public final class ApologyAdvice {
  private static final Pattern ADMISSION = Pattern.compile(
      "\\b(i apologi[sz]e|apologies|i(?:'m| am) sorry|sorry|my mistake|my bad|my error|i was wrong|i made (?:a|an) (?:mistake|error)"
          + "|i stand corrected|i misunderstood|i misread|i incorrectly (?:assumed|believed|thought)|i wrongly (?:assumed|believed|thought)"
          + "|i assumed wrongly|that was (?:my|an?) (?:mistake|error|oversight)|you(?:'re| are) right)\\b");

  private ApologyAdvice() {}

  /** The admitting phrase found in {@code message}, as written there, if any. */
  public static Optional<String> admission(String message) {
    String normalized = message.replace('\u2019', '\'');
    Matcher m = ADMISSION.matcher(normalized.toLowerCase(Locale.ROOT));
    return m.find() ? Optional.of(normalized.substring(m.start(), m.end())) : Optional.empty();
  }

  /** What to suggest, given the phrase and the ids of the assumptions still open. */
  public static String suggestion(String phrase, List<String> openAssumptions) {
    String start = "the message reads like an admission of a mistake (\"" + phrase + "\"): ";
    return openAssumptions.isEmpty()
        ? start + "record the assumption that turned out wrong, then invalidate it with its root cause, so that the fix is held to its radius"
        : start + "if one of the open assumptions " + openAssumptions + " turned out wrong, invalidate it with its root cause; otherwise"
            + " record the assumption that did";
  }
}
