package dev.capability.mcp.internal;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.mcp.McpCodes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The files an agent may see: inside the operator's allowed roots, with every path resolved to its
 * real location (symlinks followed) before it is compared with a root, and {@code .git/} and
 * {@code .capability/} never read, listed or searched (the ledger's signing key and a remote's
 * credentials live there).
 */
public final class Workspace {
  /** The directories no workspace tool reads into, at any depth. */
  public static final Set<String> PROTECTED_NAMES = Set.of(".git", ".capability");

  static final int MAX_READ_BYTES = 1 << 20;
  static final int MAX_LIST_ENTRIES = 5_000;
  static final int MAX_SEARCH_RESULTS = 1_000;
  static final long SEARCH_BYTE_BUDGET = 32L << 20;
  static final int SEARCH_MAX_FILE_BYTES = 1 << 20;
  static final int MAX_LINE_CHARS = 400;

  private final List<Path> roots;

  /** @param roots the allowed roots, already real paths */
  public Workspace(List<Path> roots) {
    this.roots = List.copyOf(roots);
  }

  /** The real path of {@code repository}, refused unless it is a directory that is an allowed root or inside one. */
  public Path repository(String repository) {
    Path real = inside(repository, "repository");
    if (!Files.isDirectory(real)) {
      throw new CapabilityException(McpCodes.PATH_NOT_FOUND, "repository '" + repository + "' is not a directory");
    }
    return real;
  }

  /** The real path of the absolute {@code path}, refused unless it is inside an allowed root. */
  public Path inside(String path, String what) {
    Path given = Path.of(path);
    if (!given.isAbsolute()) {
      throw new CapabilityException(McpCodes.INVALID_ARGUMENT, what + " must be an absolute path, was '" + path + "'");
    }
    Path real = real(given, what);
    Path root = roots.stream().filter(real::startsWith).findFirst().orElseThrow(() -> new CapabilityException(
        McpCodes.OUTSIDE_ALLOWED_ROOTS, what + " '" + path + "' (really " + real + ") is outside the allowed roots"));
    refuseProtected(root, real, path);
    return real;
  }

  /** Refuses {@code real} when a directory between {@code base} and it is protected: no repository or file inside {@code .git/}. */
  private static void refuseProtected(Path base, Path real, String given) {
    for (Path part : base.relativize(real)) {
      if (PROTECTED_NAMES.contains(part.toString())) {
        throw new CapabilityException(McpCodes.PROTECTED_PATH, "'" + given + "' is inside " + part + "/, which the workspace tools do not read");
      }
    }
  }

  /** The real path of {@code relative} inside {@code repository}, refused when it leaves it or enters a protected directory. */
  public Path resolve(Path repository, String relative) {
    Path given = Path.of(relative);
    if (given.isAbsolute()) {
      throw new CapabilityException(McpCodes.INVALID_ARGUMENT, "path must be relative to the repository, was '" + relative + "'");
    }
    Path real = real(repository.resolve(given).normalize(), "path");
    if (!real.startsWith(repository)) {
      throw new CapabilityException(McpCodes.OUTSIDE_ALLOWED_ROOTS,
          "path '" + relative + "' (really " + real + ") leaves the repository " + repository);
    }
    refuseProtected(repository, real, relative);
    return real;
  }

  private static Path real(Path path, String what) {
    try {
      return path.toRealPath();
    } catch (NoSuchFileException e) {
      throw new CapabilityException(McpCodes.PATH_NOT_FOUND, what + " '" + path + "' does not exist");
    } catch (IOException e) {
      throw new CapabilityException(McpCodes.PATH_NOT_FOUND, what + " '" + path + "' cannot be resolved: " + e.getMessage());
    }
  }

  /** Up to {@code maxBytes} of a regular file, as text when it is UTF-8. */
  public Map<String, Object> read(Path repository, String relative, int maxBytes) {
    Path file = resolve(repository, relative);
    if (!Files.isRegularFile(file)) {
      throw new CapabilityException(McpCodes.PATH_NOT_FOUND, "'" + relative + "' is not a regular file");
    }
    int limit = Math.min(Math.max(maxBytes, 1), MAX_READ_BYTES);
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readNBytes(limit);
      boolean truncated = in.read() != -1;
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("path", repository.relativize(file).toString());
      out.put("size", Files.size(file));
      out.put("truncated", truncated);
      String text = utf8(bytes, truncated);
      out.put("encoding", text == null ? "binary" : "utf-8");
      out.put("content", text == null ? "" : text);
      return out;
    } catch (IOException e) {
      throw new CapabilityException(McpCodes.TOOL_FAILED, "cannot read '" + relative + "': " + e.getMessage());
    }
  }

  /** The entries under a directory, breadth first, without following symlinks or entering protected directories. */
  public Map<String, Object> list(Path repository, String relative, int maxEntries) {
    Path start = resolve(repository, relative);
    if (!Files.isDirectory(start)) {
      throw new CapabilityException(McpCodes.PATH_NOT_FOUND, "'" + relative + "' is not a directory");
    }
    int limit = Math.min(Math.max(maxEntries, 1), MAX_LIST_ENTRIES);
    List<Map<String, Object>> entries = new ArrayList<>();
    Deque<Path> directories = new ArrayDeque<>(List.of(start));
    boolean truncated = false;
    try {
      while (!directories.isEmpty() && !truncated) {
        Path directory = directories.removeFirst();
        List<Path> children;
        try (Stream<Path> stream = Files.list(directory)) {
          children = stream.sorted().toList();
        }
        for (Path child : children) {
          if (PROTECTED_NAMES.contains(child.getFileName().toString())) {
            continue;
          }
          if (entries.size() == limit) {
            truncated = true;
            break;
          }
          BasicFileAttributes attributes = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          Map<String, Object> entry = new LinkedHashMap<>();
          entry.put("path", repository.relativize(child).toString());
          entry.put("type", attributes.isSymbolicLink() ? "symlink" : attributes.isDirectory() ? "directory" : attributes.isRegularFile() ? "file" : "other");
          if (attributes.isRegularFile()) {
            entry.put("size", attributes.size());
          }
          entries.add(entry);
          if (attributes.isDirectory()) {
            directories.addLast(child);
          }
        }
      }
    } catch (IOException e) {
      throw new CapabilityException(McpCodes.TOOL_FAILED, "cannot list '" + relative + "': " + e.getMessage());
    }
    return Map.of("entries", entries, "truncated", truncated);
  }

  /**
   * The lines holding {@code literal} (a plain string, never a pattern: nothing an agent sends
   * can make the search backtrack), in regular UTF-8 files that are not symlinks, within a result
   * bound and a budget of bytes read.
   */
  public Map<String, Object> search(Path repository, String relative, String literal, int maxResults) {
    if (literal.isEmpty()) {
      throw new CapabilityException(McpCodes.INVALID_ARGUMENT, "query must not be empty");
    }
    Path start = resolve(repository, relative);
    int limit = Math.min(Math.max(maxResults, 1), MAX_SEARCH_RESULTS);
    List<Map<String, Object>> matches = new ArrayList<>();
    Deque<Path> pending = new ArrayDeque<>(List.of(start));
    long budget = SEARCH_BYTE_BUDGET;
    boolean truncated = false;
    int skipped = 0;
    try {
      while (!pending.isEmpty() && !truncated) {
        Path path = pending.removeFirst();
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attributes.isDirectory()) {
          try (Stream<Path> stream = Files.list(path)) {
            stream.filter(child -> !PROTECTED_NAMES.contains(child.getFileName().toString())).sorted().forEach(pending::addLast);
          }
          continue;
        }
        if (!attributes.isRegularFile() || attributes.size() > SEARCH_MAX_FILE_BYTES) {
          skipped++;
          continue;
        }
        if (attributes.size() > budget) {
          truncated = true;
          break;
        }
        budget -= attributes.size();
        String text = utf8(Files.readAllBytes(path), false);
        if (text == null) {
          skipped++;
          continue;
        }
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
          if (lines[i].contains(literal)) {
            if (matches.size() == limit) {
              truncated = true;
              break;
            }
            String line = lines[i].length() > MAX_LINE_CHARS ? lines[i].substring(0, MAX_LINE_CHARS) : lines[i];
            matches.add(Map.of("path", repository.relativize(path).toString(), "line", i + 1, "text", line));
          }
        }
      }
    } catch (IOException e) {
      throw new CapabilityException(McpCodes.TOOL_FAILED, "cannot search '" + relative + "': " + e.getMessage());
    }
    return Map.of("matches", matches, "truncated", truncated, "skippedFiles", skipped);
  }

  /** The bytes as text when they are UTF-8 without NUL (a cut at the end of a truncated read is allowed), else null. */
  private static String utf8(byte[] bytes, boolean truncated) {
    for (byte b : bytes) {
      if (b == 0) {
        return null;
      }
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(truncated ? CodingErrorAction.REPLACE : CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
