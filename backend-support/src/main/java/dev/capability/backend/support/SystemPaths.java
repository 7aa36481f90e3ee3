package dev.capability.backend.support;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** The host's system entries the isolating backends show read-only, as the host has them now. */
public final class SystemPaths {
  private static final Path ETC = Path.of("/etc");
  private static final Path HOME = Path.of("/home");
  private static final Pattern ETC_NAME = Pattern.compile("[A-Za-z0-9._+-]+\\*?");

  private SystemPaths() {}

  /**
   * Parses a comma-separated list of {@code /etc} entry names as {@link #etcEntries} takes them;
   * blank parts are skipped.
   *
   * @throws IllegalArgumentException naming the first part that is not a plain name (letters,
   *     digits, {@code . _ + -}, optionally ending in {@code *}; never {@code .} or {@code ..})
   */
  public static List<String> etcNames(String value) {
    List<String> names = new ArrayList<>();
    for (String part : value.split(",")) {
      String name = part.strip();
      if (name.isEmpty()) {
        continue;
      }
      if (!ETC_NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
        throw new IllegalArgumentException(
            "'" + name + "' is not a plain name under /etc (letters, digits, . _ + -, optionally ending in *)");
      }
      names.add(name);
    }
    return names;
  }

  /**
   * The {@code /etc} entries {@code names} select, in order: a plain name is that entry (whether
   * or not it exists); a name ending in {@code *} is every entry starting with the rest, sorted.
   *
   * @throws LaunchFailedException when {@code /etc} cannot be listed
   */
  public static List<Path> etcEntries(List<String> names) {
    Set<Path> entries = new LinkedHashSet<>();
    for (String name : names) {
      if (!name.endsWith("*")) {
        entries.add(ETC.resolve(name));
        continue;
      }
      String prefix = name.substring(0, name.length() - 1);
      try (DirectoryStream<Path> matches =
          Files.newDirectoryStream(ETC, p -> p.getFileName().toString().startsWith(prefix))) {
        List<Path> sorted = new ArrayList<>();
        matches.forEach(sorted::add);
        sorted.sort(Comparator.naturalOrder());
        entries.addAll(sorted);
      } catch (IOException e) {
        throw new LaunchFailedException("cannot list " + ETC + ": " + e, e);
      }
    }
    return List.copyOf(entries);
  }

  /**
   * The directory a property or environment variable names (the user's home, {@code
   * XDG_RUNTIME_DIR}), normalized, when it is absolute and not the root; empty otherwise.
   */
  public static Optional<Path> namedDirectory(String value) {
    return Optional.ofNullable(value)
        .map(Path::of)
        .filter(Path::isAbsolute)
        .map(Path::normalize)
        .filter(path -> path.getNameCount() > 0);
  }

  /**
   * The entries of {@code /home}, none when it is missing or a symbolic link.
   *
   * @throws LaunchFailedException when it cannot be listed
   */
  public static List<Path> homeDirectories() {
    List<Path> homes = new ArrayList<>();
    if (Files.isDirectory(HOME, LinkOption.NOFOLLOW_LINKS)) {
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(HOME)) {
        entries.forEach(homes::add);
      } catch (IOException e) {
        throw new LaunchFailedException("cannot list " + HOME + ": " + e, e);
      }
    }
    return homes;
  }
}
