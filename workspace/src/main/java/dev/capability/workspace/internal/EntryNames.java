package dev.capability.workspace.internal;

import dev.capability.workspace.WorkspaceCodes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The normal form of a returned entry's name, or its refusal. */
final class EntryNames {
  /** The most bytes of one name segment (Linux's {@code NAME_MAX}). */
  static final int MAX_SEGMENT_BYTES = 255;

  private EntryNames() {}

  /**
   * {@code raw} as a repository-relative POSIX name: leading {@code ./}, empty and {@code .}
   * segments and a trailing {@code /} dropped; {@code ""} for the archive's root entry.
   *
   * @throws ArchiveRefusal for a name that is empty, holds NUL, is absolute, holds a {@code ..}
   *     segment or is too long
   */
  static String normalized(String raw, int maxNameBytes) {
    if (raw.isEmpty()) {
      throw new ArchiveRefusal(WorkspaceCodes.RETURN_HOSTILE_NAME, "an entry has an empty name");
    }
    if (raw.indexOf('\0') >= 0) {
      throw new ArchiveRefusal(WorkspaceCodes.RETURN_HOSTILE_NAME, "the entry " + printable(raw) + " has a NUL in its name");
    }
    if (raw.getBytes(StandardCharsets.UTF_8).length > maxNameBytes) {
      throw new ArchiveRefusal(WorkspaceCodes.RETURN_NAME_TOO_LONG,
          "the entry " + printable(raw) + " has a name longer than " + maxNameBytes + " bytes");
    }
    if (raw.startsWith("/")) {
      throw new ArchiveRefusal(WorkspaceCodes.RETURN_TRAVERSAL, "the entry " + printable(raw) + " has an absolute name");
    }
    List<String> segments = new ArrayList<>();
    for (String segment : raw.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..")) {
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_TRAVERSAL, "the entry " + printable(raw) + " has a '..' segment");
      }
      if (segment.getBytes(StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES) {
        throw new ArchiveRefusal(WorkspaceCodes.RETURN_NAME_TOO_LONG,
            "the entry " + printable(raw) + " has a segment longer than " + MAX_SEGMENT_BYTES + " bytes");
      }
      segments.add(segment);
    }
    return String.join("/", segments);
  }

  /** A name as a message quotes it: control characters escaped, cut at 200 characters. */
  static String printable(String name) {
    StringBuilder out = new StringBuilder("'");
    for (int i = 0; i < name.length() && i < 200; i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\x%02x", (int) c));
      } else {
        out.append(c);
      }
    }
    if (name.length() > 200) {
      out.append("...");
    }
    return out.append('\'').toString();
  }
}
