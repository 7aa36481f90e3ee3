package dev.capability.kernel.core.internal.audit;

import java.util.Locale;
import java.util.Optional;

/**
 * The path components {@code git add} refuses on Linux with Git's defaults ({@code
 * core.protectNTFS} on, {@code core.protectHFS} off): {@code .git} in any letter case, names that
 * NTFS would alias to {@code .git} ({@code git~1}, trailing dots or spaces, a {@code :} stream),
 * {@code .} and {@code ..}, and a symbolic link named like {@code .gitmodules}. Git fails the whole
 * {@code git add -A} on such a path, and so does the tree hash.
 */
final class GitPathRules {
  private GitPathRules() {}

  /** Why Git refuses the component {@code name}, or empty when it accepts it. */
  static Optional<String> refusal(String name, boolean symlink) {
    if (name.isEmpty() || name.equals(".") || name.equals("..")) {
      return Optional.of("'" + name + "' is not a valid path component");
    }
    // With protectNTFS a backslash also separates components, so each part is checked.
    for (String part : name.split("\\\\", -1)) {
      if (isNtfsDotGit(part)) {
        return Optional.of("'" + name + "' would alias the .git directory");
      }
      if (symlink && isDotGitmodules(part)) {
        return Optional.of("'" + name + "' is a symbolic link named like .gitmodules");
      }
    }
    return Optional.empty();
  }

  /** Git's {@code is_ntfs_dotgit}: {@code .git} or {@code git~1}, then only dots and spaces. */
  private static boolean isNtfsDotGit(String part) {
    String lower = part.toLowerCase(Locale.ROOT);
    String rest;
    if (lower.startsWith(".git")) {
      rest = part.substring(4);
    } else if (lower.startsWith("git~1")) {
      rest = part.substring(5);
    } else {
      return false;
    }
    return onlyDotsAndSpacesThenEnd(rest);
  }

  /**
   * Git's {@code is_ntfs_dotgitmodules} (and {@code is_hfs}-free {@code verify_dotfile}):
   * {@code .gitmodules}, its 8.3 short names {@code gitmod~1..4} and the hashed fallback {@code
   * gi7eba~N}, each followed only by dots and spaces.
   */
  private static boolean isDotGitmodules(String part) {
    String lower = part.toLowerCase(Locale.ROOT);
    if (lower.startsWith(".gitmodules")) {
      return onlyDotsAndSpacesThenEnd(part.substring(11));
    }
    if (lower.length() >= 8 && lower.startsWith("gitmod~") && lower.charAt(7) >= '1' && lower.charAt(7) <= '4') {
      return onlyDotsAndSpacesThenEnd(part.substring(8));
    }
    return isFallbackShortName(lower, "gi7eba");
  }

  private static boolean isFallbackShortName(String lower, String prefix) {
    int i = 0;
    boolean sawTilde = false;
    for (; i < 8; i++) {
      if (i >= lower.length()) {
        return false;
      }
      char c = lower.charAt(i);
      if (sawTilde) {
        if (c < '0' || c > '9') {
          return false;
        }
      } else if (c == '~') {
        if (i + 1 >= lower.length() || lower.charAt(i + 1) < '1' || lower.charAt(i + 1) > '9') {
          return false;
        }
        i++;
        sawTilde = true;
      } else if (i >= 6 || c != prefix.charAt(i)) {
        return false;
      }
    }
    return onlyDotsAndSpacesThenEnd(lower.substring(i));
  }

  private static boolean onlyDotsAndSpacesThenEnd(String rest) {
    for (int i = 0; i < rest.length(); i++) {
      char c = rest.charAt(i);
      if (c == ':') {
        return true;
      }
      if (c != '.' && c != ' ') {
        return false;
      }
    }
    return true;
  }
}
