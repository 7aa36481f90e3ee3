package dev.capability.kernel.core.internal.parse;

/**
 * The characters refused wherever they appear, inside quotes too: they either mean something to a
 * terminal or a shell that the reader cannot see, or they make the command read differently from
 * what runs. Visible look-alikes (a fullwidth semicolon, a Cyrillic letter) are ordinary
 * characters: nothing is ever normalized, so what is shown is what is passed.
 *
 * <p>Callers handle space, TAB and newline themselves (their meaning depends on quoting) and call
 * {@link #refusalAt} only for characters outside printable ASCII, keeping the common path to one
 * comparison per character.
 */
final class CharacterPolicy {
  private CharacterPolicy() {}

  /**
   * The construct refused at {@code index}, or {@code null} when the character there is allowed.
   * A high surrogate is judged together with the low surrogate that follows it; that low
   * surrogate is then allowed on its own.
   */
  static Construct refusalAt(String input, int index) {
    char c = input.charAt(index);
    if (c < 0x20 || c == 0x7F) {
      return Construct.CONTROL_CHARACTER;
    }
    if (c < 0xA0) {
      // U+0085 (NEXT LINE) is a C1 control that some software treats as a line break.
      return c == 0x85 ? Construct.NON_ASCII_WHITESPACE : Construct.CONTROL_CHARACTER;
    }
    if (Character.isHighSurrogate(c)) {
      if (index + 1 < input.length() && Character.isLowSurrogate(input.charAt(index + 1))) {
        return classify(Character.toCodePoint(c, input.charAt(index + 1)));
      }
      return Construct.LONE_SURROGATE;
    }
    if (Character.isLowSurrogate(c)) {
      boolean pairedWithPrevious = index > 0 && Character.isHighSurrogate(input.charAt(index - 1));
      return pairedWithPrevious ? null : Construct.LONE_SURROGATE;
    }
    return classify(c);
  }

  private static Construct classify(int codePoint) {
    if (isNonAsciiWhitespace(codePoint)) {
      return Construct.NON_ASCII_WHITESPACE;
    }
    if (isInvisible(codePoint)) {
      return Construct.INVISIBLE_CHARACTER;
    }
    if (Character.getType(codePoint) == Character.CONTROL) {
      return Construct.CONTROL_CHARACTER;
    }
    return null;
  }

  private static boolean isNonAsciiWhitespace(int cp) {
    // The explicit list does not depend on the JDK's Unicode version; the category test catches
    // separators the list does not name.
    if (cp == 0x00A0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028
        || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000) {
      return true;
    }
    int type = Character.getType(cp);
    return type == Character.SPACE_SEPARATOR
        || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR;
  }

  private static boolean isInvisible(int cp) {
    return isZeroWidthOrDirectional(cp)
        || isBlankFiller(cp)
        || isVariationSelectorOrTag(cp)
        || Character.getType(cp) == Character.FORMAT;
  }

  private static boolean isZeroWidthOrDirectional(int cp) {
    return cp == 0x00AD
        || cp == 0x061C
        || cp == 0x180E
        || (cp >= 0x200B && cp <= 0x200F)
        || (cp >= 0x202A && cp <= 0x202E)
        || (cp >= 0x2060 && cp <= 0x2064)
        || (cp >= 0x2066 && cp <= 0x2069)
        || cp == 0xFEFF;
  }

  /** Letters and marks that render as nothing or as a blank, but are not classed as format. */
  private static boolean isBlankFiller(int cp) {
    return cp == 0x034F // combining grapheme joiner
        || cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0 // Hangul fillers
        || cp == 0x17B4 || cp == 0x17B5 // Khmer inherent vowels
        || (cp >= 0x180B && cp <= 0x180F) // Mongolian variation selectors and separator
        || cp == 0x2800; // braille pattern blank
  }

  private static boolean isVariationSelectorOrTag(int cp) {
    return (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0000 && cp <= 0xE0FFF);
  }
}
