package dev.capability.integrations.agentsandbox.internal;

import dev.capability.integrations.agentsandbox.KernelSandboxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A path the SPI's caller gave, relative to the work directory, as its names. Empty and {@code .}
 * segments are dropped ({@code "."} and {@code ""} name the work directory itself); an absolute
 * path, a {@code ..} segment or a NUL character is refused, so no name can leave the work
 * directory lexically. Symbolic links are the walk's concern ({@link WorkDirectoryFiles}).
 */
record RelativePath(String text, List<String> names) {
  RelativePath {
    Objects.requireNonNull(text, "text");
    names = List.copyOf(names);
  }

  /**
   * The names of {@code text}.
   *
   * @throws KernelSandboxException {@code PATH_INVALID} for an absolute path, a {@code ..} segment or a NUL character
   */
  static RelativePath parse(String text) {
    Objects.requireNonNull(text, "path");
    if (text.indexOf('\0') >= 0) {
      throw invalid(text, "it contains a NUL character");
    }
    if (text.startsWith("/")) {
      throw invalid(text, "it is absolute; give a path relative to the work directory");
    }
    List<String> names = new ArrayList<>();
    for (String segment : text.split("/", -1)) {
      if (segment.equals("..")) {
        throw invalid(text, "it holds a '..' segment, which could leave the work directory");
      }
      if (!segment.isEmpty() && !segment.equals(".")) {
        names.add(segment);
      }
    }
    return new RelativePath(text, names);
  }

  /** Whether this names the work directory itself. */
  boolean isWorkDirectory() {
    return names.isEmpty();
  }

  /** The last name. */
  String fileName() {
    return names.get(names.size() - 1);
  }

  /** The names before the last. */
  List<String> parentNames() {
    return names.subList(0, names.size() - 1);
  }

  private static KernelSandboxException invalid(String text, String reason) {
    return new KernelSandboxException(KernelSandboxException.PATH_INVALID,
        "path " + quoted(text) + " is refused: " + reason, null);
  }

  /** {@code text} in quotes, with control characters escaped so that they show. */
  static String quoted(String text) {
    StringBuilder out = new StringBuilder("'");
    for (char c : text.toCharArray()) {
      if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('\'').toString();
  }
}
