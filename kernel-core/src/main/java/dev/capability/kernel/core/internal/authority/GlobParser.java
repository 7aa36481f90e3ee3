package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.SCOPE_PATTERN_INVALID;

import dev.capability.kernel.api.authority.AuthorityException;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses and checks glob syntax. Anything outside the documented subset is refused rather than
 * read literally or in some other tool's way, so a pattern never means more than its author saw:
 * no escapes, no braces, no extended globs, no negation, no POSIX classes.
 */
final class GlobParser {
  private GlobParser() {}

  /** The longest pattern accepted, in UTF-16 code units. */
  static final int MAX_LENGTH = 1024;
  /** The most segments a pattern may have. */
  static final int MAX_SEGMENTS = 63;

  private static final List<String> EXTENDED_GLOBS = List.of("?(", "*(", "+(", "@(", "!(");

  /**
   * The segments of {@code pattern}, with runs of {@code **} merged into one.
   *
   * @param what what the pattern is, for messages: {@code write scope} or {@code protected path}
   * @throws AuthorityException {@code SCOPE_PATTERN_INVALID} naming the problem
   */
  static List<GlobSegment> parse(String pattern, String what) {
    checkWhole(pattern, what);
    List<String> texts = RepositoryPaths.segments(pattern);
    if (texts.size() > MAX_SEGMENTS) {
      throw invalid(pattern, what, "has more than " + MAX_SEGMENTS + " segments");
    }
    List<GlobSegment> segments = new ArrayList<>();
    for (String text : texts) {
      if (text.isEmpty()) {
        throw invalid(pattern, what, "has an empty segment (a doubled or trailing /)");
      }
      if (text.equals(".") || text.equals("..")) {
        throw invalid(pattern, what, "has a " + text + " segment; patterns are never resolved against the file system");
      }
      if (text.equals("**")) {
        if (segments.isEmpty() || !segments.get(segments.size() - 1).isGlobstar()) {
          segments.add(GlobSegment.GLOBSTAR);
        }
      } else if (text.contains("**")) {
        throw invalid(pattern, what, "uses ** inside a segment; ** must be a whole segment, * matches within one");
      } else {
        segments.add(segment(text, pattern, what));
      }
    }
    return segments;
  }

  private static void checkWhole(String pattern, String what) {
    if (pattern.isEmpty()) {
      throw invalid(pattern, what, "is empty");
    }
    if (pattern.length() > MAX_LENGTH) {
      throw invalid(pattern, what, "is longer than " + MAX_LENGTH + " characters");
    }
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < pattern.length() && Character.isLowSurrogate(pattern.charAt(i + 1))) {
        if (Character.getType(pattern.codePointAt(i)) == Character.FORMAT) {
          throw invalid(pattern, what, "contains an invisible character at index " + i);
        }
        i++;
        continue;
      }
      int type = Character.getType(c);
      if (Character.isSurrogate(c) || Character.isISOControl(c) || type == Character.FORMAT
          || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
        throw invalid(pattern, what, "contains a control or invisible character at index " + i);
      }
    }
    if (pattern.charAt(0) == '/') {
      throw invalid(pattern, what, "is absolute; patterns are relative to the repository root");
    }
    if (pattern.charAt(0) == '~') {
      throw invalid(pattern, what, "starts with ~; patterns are relative to the repository root, never to a home directory");
    }
    if (pattern.charAt(0) == '!') {
      throw invalid(pattern, what, "starts with !; negated patterns are not supported");
    }
    if (pattern.indexOf('\\') >= 0) {
      throw invalid(pattern, what, "uses \\; escapes are not supported, write a class such as [*] for a literal *");
    }
    if (pattern.indexOf('{') >= 0 || pattern.indexOf('}') >= 0) {
      throw invalid(pattern, what, "uses { or }; brace expansion is not supported, list each pattern");
    }
    for (String extended : EXTENDED_GLOBS) {
      if (pattern.contains(extended)) {
        throw invalid(pattern, what, "uses the extended glob " + extended + "...); extended globs are not supported");
      }
    }
  }

  private static GlobSegment segment(String text, String pattern, String what) {
    List<Integer> units = new ArrayList<>();
    List<CodePointSet> classes = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      int c = text.codePointAt(i);
      if (c == '*') {
        if (units.isEmpty() || units.get(units.size() - 1) != GlobSegment.STAR) {
          units.add(GlobSegment.STAR);
        }
        i++;
      } else if (c == '?') {
        units.add(GlobSegment.ANY);
        i++;
      } else if (c == '[') {
        i = characterClass(text, i, classes, pattern, what);
        units.add(GlobSegment.classUnit(classes.size() - 1));
      } else {
        units.add(c);
        i += Character.charCount(c);
      }
    }
    return GlobSegment.of(units.stream().mapToInt(Integer::intValue).toArray(), classes);
  }

  /** Parses the class opening at {@code text[open]}, adds it to {@code classes}, and returns the index after its {@code ]}. */
  private static int characterClass(String text, int open, List<CodePointSet> classes, String pattern, String what) {
    int i = open + 1;
    boolean negated = i < text.length() && (text.charAt(i) == '!' || text.charAt(i) == '^');
    if (negated) {
      i++;
    }
    List<int[]> ranges = new ArrayList<>();
    boolean first = true;
    while (true) {
      if (i >= text.length()) {
        throw invalid(pattern, what, "has a [ without its ]");
      }
      int c = text.codePointAt(i);
      if (c == ']' && !first) {
        i++;
        break;
      }
      if (c == '[' && i + 1 < text.length() && ":=.".indexOf(text.charAt(i + 1)) >= 0) {
        throw invalid(pattern, what, "uses a POSIX class such as [:alpha:]; list the characters or ranges instead");
      }
      i += Character.charCount(c);
      if (i + 1 < text.length() && text.charAt(i) == '-' && text.charAt(i + 1) != ']') {
        int high = text.codePointAt(i + 1);
        if (high < c) {
          throw invalid(pattern, what, "has the reversed range " + new String(Character.toChars(c)) + "-"
              + new String(Character.toChars(high)));
        }
        ranges.add(new int[] {c, high});
        i += 1 + Character.charCount(high);
      } else {
        ranges.add(new int[] {c, c});
      }
      first = false;
    }
    CodePointSet members = CodePointSet.ofRanges(ranges);
    classes.add(negated ? members.complement() : members);
    return i;
  }

  private static AuthorityException invalid(String pattern, String what, String problem) {
    return new AuthorityException(SCOPE_PATTERN_INVALID, what + " " + Printable.quote(pattern) + " " + problem);
  }
}
