package dev.capability.kernel.core.internal.policy;

/** Classifies characters that must not appear in paths, names and literals of a policy or argv. */
final class Characters {
  private Characters() {}

  /**
   * The index of the first character that is a control character (C0, DEL, C1), an invisible
   * format character (for example a bidirectional override), a line or paragraph separator, or
   * half of a broken surrogate pair; -1 when there is none. Such characters make a string look
   * different from what a program receives.
   */
  static int firstUnsafe(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        int codePoint = text.codePointAt(i);
        if (Character.getType(codePoint) == Character.FORMAT) {
          return i;
        }
        i++;
        continue;
      }
      if (Character.isSurrogate(c) || Character.isISOControl(c)) {
        return i;
      }
      int type = Character.getType(c);
      if (type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
        return i;
      }
    }
    return -1;
  }

  /** The index of the first NUL or broken surrogate, which no argv or environment can carry; -1 if none. */
  static int firstUnencodable(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (c == 0 || Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }
}
