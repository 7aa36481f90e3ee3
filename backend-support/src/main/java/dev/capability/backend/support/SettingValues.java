package dev.capability.backend.support;

import dev.capability.kernel.api.BackendUnavailableException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The value parsers the backends' settings share. A bad value makes the backend unavailable, with
 * a message that names the backend, the setting and the value.
 */
public final class SettingValues {
  private final String backend;

  /** @param backend the backend's name, as in {@code "invalid bwrap setting ..."} */
  public SettingValues(String backend) {
    this.backend = Objects.requireNonNull(backend, "backend");
  }

  /** A byte count: digits with an optional binary suffix K, M or G (any case). */
  public long bytes(String key, String value) {
    String v = value.strip().toUpperCase(Locale.ROOT);
    int shift = 0;
    if (v.endsWith("K") || v.endsWith("M") || v.endsWith("G")) {
      shift = v.endsWith("K") ? 10 : v.endsWith("M") ? 20 : 30;
      v = v.substring(0, v.length() - 1);
    }
    long n = positive(key, v, value);
    if (n > (Long.MAX_VALUE >> shift)) {
      throw invalid(key, "'" + value + "' is too large");
    }
    return n << shift;
  }

  /** A positive whole number. */
  public long count(String key, String value) {
    return positive(key, value.strip(), value);
  }

  /** A user or group id: positive, below {@code (uid_t) -1} (which means "unchanged" to setresuid). */
  public int id(String key, String value) {
    long n = count(key, value);
    if (n >= 0xFFFF_FFFFL || n > Integer.MAX_VALUE) {
      throw invalid(key, "'" + value + "' is out of range");
    }
    return (int) n;
  }

  /** An absolute, normalized path other than {@code /}. */
  public Path absolutePath(String key, String value) {
    try {
      Path path = Path.of(value.strip());
      if (!path.isAbsolute() || !path.normalize().equals(path) || path.getNameCount() == 0) {
        throw invalid(key, "'" + value + "' must be an absolute path without . or .., not /");
      }
      return path;
    } catch (InvalidPathException e) {
      throw invalid(key, "'" + value + "' is not a path: " + e.getMessage());
    }
  }

  /** A comma-separated list of {@link #absolutePath absolute paths}; blank parts are skipped. */
  public List<Path> absolutePaths(String key, String value) {
    List<Path> paths = new ArrayList<>();
    for (String part : value.split(",")) {
      if (!part.isBlank()) {
        paths.add(absolutePath(key, part));
      }
    }
    return paths;
  }

  /** The {@code /etc} entry names of {@link SystemPaths#etcNames}. */
  public List<String> etcNames(String key, String value) {
    try {
      return SystemPaths.etcNames(value);
    } catch (IllegalArgumentException e) {
      throw invalid(key, e.getMessage());
    }
  }

  /** The exception for a bad value of {@code key}. */
  public BackendUnavailableException invalid(String key, String why) {
    return new BackendUnavailableException(BackendUnavailableException.UNAVAILABLE, "invalid " + backend + " setting " + key + ": " + why);
  }

  private long positive(String key, String digits, String original) {
    if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw invalid(key, "'" + original + "' is not a positive whole number");
    }
    try {
      long n = Long.parseLong(digits);
      if (n <= 0) {
        throw invalid(key, "'" + original + "' must be positive");
      }
      return n;
    } catch (NumberFormatException e) {
      throw invalid(key, "'" + original + "' is too large");
    }
  }
}
