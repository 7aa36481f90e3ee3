package dev.capability.capability.runtime.internal.discovery;

import java.util.regex.Pattern;

/**
 * Messages that quote untrusted documents (parser errors repeat the offending token) reach
 * terminals; control and format characters are replaced so a document cannot send escape
 * sequences or reorder text on the operator's screen.
 */
public final class Printable {
  private static final Pattern UNPRINTABLE = Pattern.compile("[\\p{Cc}\\p{Cf}]");

  private Printable() {}

  public static String of(String text) {
    return text == null ? "" : UNPRINTABLE.matcher(text).replaceAll("?");
  }
}
