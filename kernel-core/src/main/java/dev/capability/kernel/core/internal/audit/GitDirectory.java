package dev.capability.kernel.core.internal.audit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jgit.errors.ConfigInvalidException;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The Git directory of a working tree, read the way Git reads it and never written: {@code .git}
 * as a directory or as a {@code gitdir:} file, a linked worktree's {@code commondir}, {@code HEAD},
 * loose refs and {@code packed-refs}. Deliberately not a JGit {@code Repository}: opening one reads
 * the host's Git configuration and may run {@code git} to find it, and JGit's index reader probes
 * the file system by creating files in the directory it reads.
 */
final class GitDirectory {
  private static final int MAX_SMALL_FILE_BYTES = 64 * 1024;
  private static final int MAX_CONFIG_BYTES = 1024 * 1024;
  private static final int MAX_SYMREF_DEPTH = 5;
  private static final Pattern HEX_ID = Pattern.compile("[0-9a-f]{40}");
  private static final Pattern REF_NAME = Pattern.compile("refs/[\\x21-\\x7e&&[^\\\\:?*\\[~^]]+");

  private final Path gitDir;
  private final Path commonDir;

  private GitDirectory(Path gitDir, Path commonDir) {
    this.gitDir = gitDir;
    this.commonDir = commonDir;
  }

  /**
   * The Git directory of {@code workTree}: empty when {@code workTree/.git} does not exist or is
   * not a Git directory (symbolic links followed, as Git does).
   */
  static Optional<GitDirectory> find(Path workTree) throws IOException {
    Path dotGit = workTree.resolve(".git");
    return Files.exists(dotGit) ? resolve(dotGit) : Optional.empty();
  }

  /**
   * Whether {@code directory} is the working tree of a repository of its own, as Git decides when
   * it meets a nested repository: {@code .git} is a Git directory or a {@code gitdir:} file naming
   * one (symbolic links followed, as Git does).
   */
  static boolean isRepository(Path directory) throws IOException {
    return find(directory).isPresent();
  }

  /** The commit {@code HEAD} names, or empty for a branch without commits. */
  Optional<ObjectId> head() throws IOException {
    requireSupportedFormat();
    Path head = gitDir.resolve("HEAD");
    if (Files.isSymbolicLink(head)) {
      return ref(Files.readSymbolicLink(head).toString(), 0);
    }
    String content = readSmall(head).strip();
    if (content.startsWith("ref:")) {
      return ref(content.substring(4).strip(), 0);
    }
    return Optional.of(objectId(content, head));
  }

  Path indexFile() {
    return gitDir.resolve("index");
  }

  Path excludeFile() {
    return commonDir.resolve("info").resolve("exclude");
  }

  private Optional<ObjectId> ref(String name, int depth) throws IOException {
    if (depth > MAX_SYMREF_DEPTH) {
      throw failed("symbolic refs nest deeper than " + MAX_SYMREF_DEPTH + " in " + gitDir);
    }
    if (!REF_NAME.matcher(name).matches() || name.contains("..") || name.contains("//")
        || name.endsWith("/") || name.endsWith(".lock")) {
      throw failed("HEAD of " + gitDir + " names an invalid ref '" + name + "'");
    }
    Path loose = (perWorktree(name) ? gitDir : commonDir).resolve(name);
    if (Files.isRegularFile(loose, LinkOption.NOFOLLOW_LINKS)) {
      String content = readSmall(loose).strip();
      if (content.startsWith("ref:")) {
        return ref(content.substring(4).strip(), depth + 1);
      }
      return Optional.of(objectId(content, loose));
    }
    return packedRef(name);
  }

  private Optional<ObjectId> packedRef(String name) throws IOException {
    Path packed = commonDir.resolve("packed-refs");
    if (!Files.isRegularFile(packed)) {
      return Optional.empty();
    }
    try (var lines = Files.lines(packed, StandardCharsets.UTF_8)) {
      return lines
          .filter(line -> !line.startsWith("#") && !line.startsWith("^"))
          .filter(line -> line.length() == 41 + name.length() && line.endsWith(" " + name))
          .map(line -> objectId(line.substring(0, 40), packed))
          .findFirst();
    }
  }

  /**
   * Refuses what this audit cannot read faithfully.
   *
   * @throws AuditException {@code SNAPSHOT_FAILED} for SHA-256 object ids or reftable refs
   */
  void requireSupportedFormat() throws IOException {
    if (Files.exists(commonDir.resolve("reftable"))) {
      throw failed(commonDir + " stores refs in a reftable, which this audit does not read");
    }
    Path configFile = commonDir.resolve("config");
    if (!Files.isRegularFile(configFile)) {
      return;
    }
    if (Files.size(configFile) > MAX_CONFIG_BYTES) {
      throw failed(configFile + " is larger than " + MAX_CONFIG_BYTES + " bytes");
    }
    Config config = new Config();
    try {
      config.fromText(Files.readString(configFile, StandardCharsets.UTF_8));
    } catch (ConfigInvalidException e) {
      throw new AuditException(AuditException.SNAPSHOT_FAILED, configFile + " is not a valid Git configuration: " + e.getMessage(), e);
    }
    String objectFormat = config.getString("extensions", null, "objectformat");
    if (objectFormat != null && !objectFormat.equalsIgnoreCase("sha1")) {
      throw failed(commonDir + " uses " + objectFormat + " object ids; this audit computes SHA-1 trees only");
    }
    String refStorage = config.getString("extensions", null, "refstorage");
    if (refStorage != null && !refStorage.equalsIgnoreCase("files")) {
      throw failed(commonDir + " stores refs as " + refStorage + ", which this audit does not read");
    }
  }

  /** {@code dotGit} as Git would resolve it, or empty when it is not a Git directory. */
  private static Optional<GitDirectory> resolve(Path dotGit) throws IOException {
    Path gitDir = dotGit;
    if (Files.isRegularFile(dotGit)) {
      String content = readSmall(dotGit);
      if (!content.startsWith("gitdir:")) {
        return Optional.empty();
      }
      gitDir = dotGit.getParent().resolve(content.substring("gitdir:".length()).strip()).normalize();
    }
    if (!Files.isDirectory(gitDir)) {
      return Optional.empty();
    }
    Path commonDir = gitDir;
    Path commonFile = gitDir.resolve("commondir");
    if (Files.isRegularFile(commonFile)) {
      commonDir = gitDir.resolve(readSmall(commonFile).strip()).normalize();
    }
    boolean valid = Files.isDirectory(commonDir.resolve("objects"))
        && Files.isDirectory(commonDir.resolve("refs"))
        && Files.exists(gitDir.resolve("HEAD"));
    return valid ? Optional.of(new GitDirectory(gitDir, commonDir)) : Optional.empty();
  }

  private static boolean perWorktree(String ref) {
    return ref.startsWith("refs/worktree/") || ref.startsWith("refs/bisect/") || ref.startsWith("refs/rewritten/");
  }

  private static ObjectId objectId(String hex, Path source) {
    if (!HEX_ID.matcher(hex).matches()) {
      throw failed(source + " does not hold a SHA-1 object id");
    }
    return ObjectId.fromString(hex);
  }

  private static String readSmall(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readNBytes(MAX_SMALL_FILE_BYTES + 1);
      if (bytes.length > MAX_SMALL_FILE_BYTES) {
        throw failed(file + " is larger than " + MAX_SMALL_FILE_BYTES + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new AuditException(AuditException.SNAPSHOT_FAILED, file + " vanished while it was read", e);
    }
  }

  private static AuditException failed(String message) {
    return new AuditException(AuditException.SNAPSHOT_FAILED, message);
  }
}
