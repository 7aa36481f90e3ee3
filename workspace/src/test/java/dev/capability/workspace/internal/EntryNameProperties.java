package dev.capability.workspace.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.workspace.WorkspaceCodes;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The reader's name handling: every name is either refused or normalized to a name that stays below the archive's root. */
class EntryNameProperties {
  private static final int MAX_NAME_BYTES = 64;

  @Provide
  Arbitrary<String> names() {
    Arbitrary<String> segment = Arbitraries.oneOf(
        Arbitraries.of("", ".", "..", "...", "a", "b", ".git", "\u00e9", "a\0b", "..a", "a..", "\\..", "~"),
        Arbitraries.strings().withChars("ab./\\\0").ofMinLength(1).ofMaxLength(4));
    return segment.list().ofMinSize(1).ofMaxSize(8).map(parts -> String.join("/", parts));
  }

  @Property(tries = 2000)
  void aNameIsRefusedOrNormalizedToARelativeNameWithoutDotSegments(@ForAll("names") String raw) {
    String normalized;
    try {
      normalized = EntryNames.normalized(raw, MAX_NAME_BYTES);
    } catch (ArchiveRefusal refusal) {
      assertThat(refusal.code()).isIn(WorkspaceCodes.RETURN_TRAVERSAL, WorkspaceCodes.RETURN_HOSTILE_NAME, WorkspaceCodes.RETURN_NAME_TOO_LONG);
      boolean traversal = raw.startsWith("/") || List.of(raw.split("/", -1)).contains("..");
      boolean hostile = raw.isEmpty() || raw.indexOf('\0') >= 0;
      assertThat(traversal || hostile || raw.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_NAME_BYTES)
          .as("refused %s for %s", refusal.code(), raw).isTrue();
      return;
    }
    assertThat(normalized).doesNotStartWith("/").doesNotEndWith("/").doesNotContain("//").doesNotContain("\0");
    for (String segment : normalized.isEmpty() ? new String[0] : normalized.split("/", -1)) {
      assertThat(segment).isNotIn("", ".", "..");
    }
    Path resolved = Path.of("/root").resolve(normalized).normalize();
    assertThat(resolved.startsWith(Path.of("/root"))).isTrue();
    assertThat(Path.of(normalized)).isEqualTo(Path.of(raw).normalize());
  }

  @Property(tries = 200)
  void aNameWithADotDotSegmentIsAlwaysRefused(@ForAll("names") String prefix, @ForAll("names") String suffix) {
    String raw = prefix + "/../" + suffix;
    try {
      EntryNames.normalized(raw, 4096);
    } catch (ArchiveRefusal refusal) {
      assertThat(refusal.code()).isIn(WorkspaceCodes.RETURN_TRAVERSAL, WorkspaceCodes.RETURN_HOSTILE_NAME, WorkspaceCodes.RETURN_NAME_TOO_LONG);
      return;
    }
    throw new AssertionError("accepted " + raw);
  }
}
