package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.GIT_DIRECTORY_INVALID;

import dev.capability.kernel.api.authority.AuthorityException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where git keeps a repository's data. {@code .git} is usually that directory; in a worktree made
 * by {@code git worktree add}, and after {@code git init --separate-git-dir}, it is a file that
 * says {@code gitdir: PATH}, and the git directory it names may hold a {@code commondir} file
 * naming the directory shared by all worktrees (config, hooks, objects, refs). Both are protected
 * wherever they are.
 *
 * @param gitDirectory the real path of the git directory, when the repository has one
 * @param commonDirectory the real path of the common directory, when it differs from the git directory
 */
record GitLocations(Optional<Path> gitDirectory, Optional<Path> commonDirectory) {

  /** The most bytes read from a {@code .git} or {@code commondir} file. */
  static final int MAX_FILE_BYTES = 4096;

  private static final String GITDIR_PREFIX = "gitdir: ";

  /**
   * The git locations of the repository whose real root is {@code root}.
   *
   * @throws AuthorityException {@code GIT_DIRECTORY_INVALID} when {@code .git} exists but does not
   *     lead to a directory
   */
  static GitLocations of(Path root) {
    Path dotGit = root.resolve(".git");
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(dotGit, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return new GitLocations(Optional.empty(), Optional.empty());
    } catch (IOException e) {
      throw invalid(dotGit, "cannot be read: " + e.getMessage(), e);
    }
    Path gitDirectory;
    if (attributes.isDirectory() || attributes.isSymbolicLink()) {
      gitDirectory = directory(dotGit, dotGit);
    } else if (attributes.isRegularFile()) {
      String content = readSmallFile(dotGit).strip();
      if (!content.startsWith(GITDIR_PREFIX)) {
        throw invalid(dotGit, "is a file that does not start with \"gitdir: \"");
      }
      gitDirectory = directory(resolve(root, content.substring(GITDIR_PREFIX.length()), dotGit), dotGit);
    } else {
      throw invalid(dotGit, "is neither a directory nor a gitdir file");
    }
    return ofGitDirectory(gitDirectory);
  }

  /**
   * The git locations of the git directory whose real path is {@code gitDirectory}: it, and the
   * common directory its {@code commondir} file names, if any.
   *
   * @throws AuthorityException {@code GIT_DIRECTORY_INVALID} when {@code commondir} exists but does
   *     not lead to a directory
   */
  static GitLocations ofGitDirectory(Path gitDirectory) {
    Path commondir = gitDirectory.resolve("commondir");
    Optional<Path> common = Optional.empty();
    if (Files.exists(commondir, LinkOption.NOFOLLOW_LINKS)) {
      if (!Files.isRegularFile(commondir, LinkOption.NOFOLLOW_LINKS)) {
        throw invalid(commondir, "is not a regular file");
      }
      Path commonDirectory = directory(resolve(gitDirectory, readSmallFile(commondir).strip(), commondir), commondir);
      if (!commonDirectory.equals(gitDirectory)) {
        common = Optional.of(commonDirectory);
      }
    }
    return new GitLocations(Optional.of(gitDirectory), common);
  }

  /** Both directories, git directory first. */
  List<Path> all() {
    List<Path> all = new ArrayList<>();
    gitDirectory.ifPresent(all::add);
    commonDirectory.ifPresent(all::add);
    return all;
  }

  private static Path resolve(Path base, String text, Path file) {
    if (text.isEmpty()) {
      throw invalid(file, "names an empty path");
    }
    try {
      return base.resolve(text);
    } catch (InvalidPathException e) {
      throw invalid(file, "names something that is not a path: " + e.getReason(), e);
    }
  }

  private static Path directory(Path path, Path namedBy) {
    try {
      Path real = path.toRealPath();
      if (!Files.isDirectory(real)) {
        throw invalid(namedBy, "leads to " + real + ", which is not a directory");
      }
      return real;
    } catch (IOException e) {
      throw invalid(namedBy, "leads to " + path + ", which cannot be resolved: " + e.getMessage(), e);
    }
  }

  private static String readSmallFile(Path file) {
    try (SeekableByteChannel channel = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      ByteBuffer buffer = ByteBuffer.allocate(MAX_FILE_BYTES + 1);
      int read;
      do {
        read = channel.read(buffer);
      } while (read > 0 && buffer.hasRemaining());
      if (buffer.position() > MAX_FILE_BYTES) {
        throw invalid(file, "is larger than " + MAX_FILE_BYTES + " bytes");
      }
      buffer.flip();
      return StandardCharsets.UTF_8.newDecoder().decode(buffer).toString();
    } catch (CharacterCodingException e) {
      throw invalid(file, "is not UTF-8", e);
    } catch (IOException e) {
      throw invalid(file, "cannot be read: " + e.getMessage(), e);
    }
  }

  private static AuthorityException invalid(Path path, String problem) {
    return new AuthorityException(GIT_DIRECTORY_INVALID, path + " " + problem);
  }

  private static AuthorityException invalid(Path path, String problem, Throwable cause) {
    return new AuthorityException(GIT_DIRECTORY_INVALID, path + " " + problem, cause);
  }
}
