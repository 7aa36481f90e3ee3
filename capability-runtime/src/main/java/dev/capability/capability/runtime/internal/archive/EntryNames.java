package dev.capability.capability.runtime.internal.archive;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.internal.effects.ScopeGrammar;
import java.text.Normalizer;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one rule for names inside a package, whatever it came from (zip, tar, directory, manifest):
 * relative, '/'-separated, canonical, and free of characters that display, compare or resolve
 * differently on some platform.
 */
public final class EntryNames {
  static final int MAX_NAME = 1024;
  static final int MAX_SEGMENT = 255;
  private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:.*");
  private static final Pattern RESERVED =
      Pattern.compile("(?i)(con|prn|aux|nul|com[0-9]|lpt[0-9])(\\..*)?");
  private static final Set<Character> WINDOWS_FORBIDDEN = Set.of('<', '>', ':', '"', '|', '?', '*');

  private EntryNames() {}

  /**
   * Refuses a hostile or non-canonical entry name. A directory name may end with one {@code /}.
   *
   * @return the name without a trailing {@code /}
   */
  public static String check(String name) {
    if (name.isEmpty() || name.equals("/")) {
      throw refused(CapabilityCodes.ARCHIVE_NON_CANONICAL_NAME, name, "empty name");
    }
    if (name.length() > MAX_NAME) {
      throw refused(CapabilityCodes.ARCHIVE_HOSTILE_NAME, name, "longer than " + MAX_NAME + " characters");
    }
    if (name.indexOf('\\') >= 0) {
      throw refused(CapabilityCodes.ARCHIVE_PATH_TRAVERSAL, name, "Windows-style '\\' separator");
    }
    if (name.startsWith("/")) {
      throw refused(CapabilityCodes.ARCHIVE_PATH_TRAVERSAL, name, "absolute path");
    }
    if (DRIVE.matcher(name).matches()) {
      throw refused(CapabilityCodes.ARCHIVE_PATH_TRAVERSAL, name, "Windows drive path");
    }
    String path = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    String[] segments = path.split("/", -1);
    for (String segment : segments) {
      if (segment.equals("..")) {
        throw refused(CapabilityCodes.ARCHIVE_PATH_TRAVERSAL, name, "'..' segment");
      }
    }
    for (String segment : segments) {
      if (segment.isEmpty() || segment.equals(".")) {
        throw refused(CapabilityCodes.ARCHIVE_NON_CANONICAL_NAME, name, "empty or '.' segment");
      }
      checkSegment(name, segment);
    }
    return path;
  }

  private static void checkSegment(String name, String segment) {
    if (segment.length() > MAX_SEGMENT) {
      throw refused(CapabilityCodes.ARCHIVE_HOSTILE_NAME, name, "a segment is longer than " + MAX_SEGMENT);
    }
    for (int i = 0; i < segment.length(); ) {
      int cp = segment.codePointAt(i);
      if (Character.isSurrogate((char) cp)
          || Character.isISOControl(cp)
          || Character.getType(cp) == Character.FORMAT
          || Character.getType(cp) == Character.LINE_SEPARATOR
          || Character.getType(cp) == Character.PARAGRAPH_SEPARATOR
          || Character.getType(cp) == Character.UNASSIGNED
          || Character.getType(cp) == Character.PRIVATE_USE
          || cp == 0xFFFD) {
        throw refused(
            CapabilityCodes.ARCHIVE_HOSTILE_NAME,
            name,
            String.format("control, format, unassigned or replacement character U+%04X", cp));
      }
      if (cp < 0x80 && WINDOWS_FORBIDDEN.contains((char) cp)) {
        throw refused(CapabilityCodes.ARCHIVE_HOSTILE_NAME, name, "character '" + (char) cp + "'");
      }
      i += Character.charCount(cp);
    }
    if (segment.endsWith(".") || segment.endsWith(" ") || segment.startsWith(" ")) {
      throw refused(CapabilityCodes.ARCHIVE_HOSTILE_NAME, name, "a segment starts with a space or ends with '.' or a space");
    }
    if (RESERVED.matcher(segment).matches()) {
      throw refused(CapabilityCodes.ARCHIVE_HOSTILE_NAME, name, "Windows device name '" + segment + "'");
    }
  }

  /**
   * The key under which two names collide on a case-insensitive or normalizing file system: NFKC,
   * then case folded.
   */
  public static String collisionKey(String name) {
    String normalized = Normalizer.normalize(name, Normalizer.Form.NFKC);
    return normalized.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
  }

  private static PackageRefusedException refused(String code, String name, String why) {
    return new PackageRefusedException(code, "entry '" + ScopeGrammar.printable(name) + "' refused: " + why);
  }
}
