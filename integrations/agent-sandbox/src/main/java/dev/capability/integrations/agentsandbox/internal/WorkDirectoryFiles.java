package dev.capability.integrations.agentsandbox.internal;

import static dev.capability.integrations.agentsandbox.internal.RelativePath.quoted;

import dev.capability.integrations.agentsandbox.KernelSandboxException;
import dev.capability.linux.NativeCallException;
import dev.capability.linux.PinnedPath;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springaicommunity.sandbox.FileEntry;
import org.springaicommunity.sandbox.FileSpec;
import org.springaicommunity.sandbox.FileType;
import org.springaicommunity.sandbox.Sandbox;
import org.springaicommunity.sandbox.SandboxFiles;

/**
 * The SPI's file operations, inside the work directory only. Every path is relative ({@link
 * RelativePath}); it is walked from the work directory one name at a time, each directory opened
 * relative to the one before ({@link SecureDirectoryStream}, {@code openat} with {@code O_NOFOLLOW})
 * after its attributes were read without following links. A name that is a symbolic link refuses
 * the operation, and files are opened with {@code NOFOLLOW_LINKS} relative to their opened
 * directory, so a link planted by a command (to {@code /etc}, or to another place in the work
 * directory) is never followed, and swapping a checked directory for a link afterwards makes the
 * open fail instead of leading outside. Listings show a link as a {@code FILE} entry and never enter
 * it; a recursive delete removes links themselves, never what they point to.
 *
 * <p>The JDK has no {@code mkdirat}, so a missing directory is created through a descriptor of its
 * parent that {@code linux-native}'s {@link PinnedPath} opened from {@code /} without following
 * links, never by a path a command could redirect.
 */
public final class WorkDirectoryFiles implements SandboxFiles {
  /** Deepest directory level a listing or a recursive delete enters, so that neither can exhaust the stack or descriptors. */
  static final int MAX_DEPTH = 256;

  private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
  private static final Set<OpenOption> WRITE = Set.of(
      StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);

  private final Sandbox sandbox;
  private final Path workDirectory;

  /** File operations of {@code sandbox} in {@code workDirectory}, a real path. */
  public WorkDirectoryFiles(Sandbox sandbox, Path workDirectory) {
    this.sandbox = Objects.requireNonNull(sandbox, "sandbox");
    this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
  }

  @Override
  public SandboxFiles create(String relativePath, String content) {
    Objects.requireNonNull(content, "content");
    requireOpen();
    RelativePath path = fileOperand(relativePath);
    try (SecureDirectoryStream<Path> parent = walk(path, path.parentNames(), true)) {
      BasicFileAttributes existing = attributes(parent, path.fileName());
      if (existing != null) {
        requireRegularFile(path, existing);
      }
      try (SeekableByteChannel channel = parent.newByteChannel(Path.of(path.fileName()), WRITE)) {
        ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
      }
      return this;
    } catch (IOException e) {
      throw io("create", path, e);
    }
  }

  @Override
  public SandboxFiles createDirectory(String relativePath) {
    requireOpen();
    RelativePath path = RelativePath.parse(relativePath);
    try {
      // The walk creates and checks each missing directory; the last one opened is not needed.
      walk(path, path.names(), true).close();
      return this;
    } catch (IOException e) {
      throw io("create the directory", path, e);
    }
  }

  @Override
  public SandboxFiles setup(List<FileSpec> files) {
    for (FileSpec file : files) {
      create(file.path(), file.content());
    }
    return this;
  }

  @Override
  public String read(String relativePath) {
    requireOpen();
    RelativePath path = fileOperand(relativePath);
    try (SecureDirectoryStream<Path> parent = walk(path, path.parentNames(), false)) {
      BasicFileAttributes attributes = attributes(parent, path.fileName());
      if (attributes == null) {
        throw notFound(path);
      }
      requireRegularFile(path, attributes);
      try (InputStream in = Channels.newInputStream(parent.newByteChannel(Path.of(path.fileName()), READ))) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw io("read", path, e);
    }
  }

  /**
   * Whether something exists at the path, without following links: a symbolic link itself exists.
   *
   * @throws KernelSandboxException when the path is invalid or passes through a symbolic link
   */
  @Override
  public boolean exists(String relativePath) {
    requireOpen();
    RelativePath path = RelativePath.parse(relativePath);
    if (path.isWorkDirectory()) {
      return true;
    }
    try (SecureDirectoryStream<Path> parent = walk(path, path.parentNames(), false)) {
      return attributes(parent, path.fileName()) != null;
    } catch (KernelSandboxException e) {
      if (e.code().equals(KernelSandboxException.PATH_NOT_FOUND) || e.code().equals(KernelSandboxException.PATH_NOT_DIRECTORY)) {
        return false;
      }
      throw e;
    } catch (IOException e) {
      throw io("look up", path, e);
    }
  }

  @Override
  public List<FileEntry> list(String relativePath) {
    return list(relativePath, 1);
  }

  /**
   * The entries under the directory, depth first, sorted by name within each directory. A
   * symbolic link is listed as a {@code FILE} (the size is the link's own) and never entered.
   */
  @Override
  public List<FileEntry> list(String relativePath, int maxDepth) {
    if (maxDepth < 1) {
      throw new IllegalArgumentException("maxDepth must be at least 1, was " + maxDepth);
    }
    requireOpen();
    RelativePath path = RelativePath.parse(relativePath);
    try (SecureDirectoryStream<Path> directory = walk(path, path.names(), false)) {
      List<FileEntry> entries = new ArrayList<>();
      collect(path, directory, String.join("/", path.names()), 1, maxDepth, entries);
      return entries;
    } catch (IOException e) {
      throw io("list", path, e);
    }
  }

  @Override
  public SandboxFiles delete(String relativePath) {
    return delete(relativePath, false);
  }

  /** Deletes a file or directory; a symbolic link at the path is refused, and links inside a deleted tree are removed themselves. */
  @Override
  public SandboxFiles delete(String relativePath, boolean recursive) {
    requireOpen();
    RelativePath path = fileOperand(relativePath);
    try (SecureDirectoryStream<Path> parent = walk(path, path.parentNames(), false)) {
      Path name = Path.of(path.fileName());
      BasicFileAttributes attributes = attributes(parent, path.fileName());
      if (attributes == null) {
        throw notFound(path);
      }
      if (attributes.isSymbolicLink()) {
        throw symbolicLink(path, path.names());
      }
      if (!attributes.isDirectory()) {
        parent.deleteFile(name);
        return this;
      }
      if (recursive) {
        try (SecureDirectoryStream<Path> directory = parent.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
          deleteContents(path, directory, 1);
        }
      }
      try {
        parent.deleteDirectory(name);
      } catch (DirectoryNotEmptyException e) {
        throw new KernelSandboxException(KernelSandboxException.DIRECTORY_NOT_EMPTY,
            "path " + quoted(path.text()) + " is a directory that is not empty; delete it with recursive = true", e);
      }
      return this;
    } catch (IOException e) {
      throw io("delete", path, e);
    }
  }

  @Override
  public Sandbox and() {
    return sandbox;
  }

  /**
   * The directory {@code names} (a prefix of {@code path}'s) lead to, opened name by name without
   * following links; with {@code createMissing}, missing directories are created on the way.
   */
  private SecureDirectoryStream<Path> walk(RelativePath path, List<String> names, boolean createMissing) throws IOException {
    SecureDirectoryStream<Path> current = openWorkDirectory();
    try {
      for (int i = 0; i < names.size(); i++) {
        String name = names.get(i);
        BasicFileAttributes attributes = attributes(current, name);
        if (attributes == null && createMissing) {
          createInPinnedParent(path, names.subList(0, i + 1));
          attributes = attributes(current, name);
        }
        if (attributes == null) {
          throw notFound(path);
        }
        if (attributes.isSymbolicLink()) {
          throw symbolicLink(path, names.subList(0, i + 1));
        }
        if (!attributes.isDirectory()) {
          throw notDirectory(path, names.subList(0, i + 1));
        }
        SecureDirectoryStream<Path> next = current.newDirectoryStream(Path.of(name), LinkOption.NOFOLLOW_LINKS);
        current.close();
        current = next;
      }
      return current;
    } catch (IOException | RuntimeException e) {
      current.close();
      throw e;
    }
  }

  private SecureDirectoryStream<Path> openWorkDirectory() throws IOException {
    DirectoryStream<Path> stream = Files.newDirectoryStream(workDirectory);
    if (stream instanceof SecureDirectoryStream<Path> secure) {
      return secure;
    }
    stream.close();
    throw new KernelSandboxException(KernelSandboxException.FILE_IO,
        "this platform cannot open a directory relative to another (no SecureDirectoryStream), so file operations"
            + " that must not follow symbolic links are refused rather than done by path",
        null);
  }

  /**
   * Creates the directory {@code names} inside its parent, which is pinned first: opened from
   * {@code /} name by name without following links ({@link PinnedPath}), and the directory made
   * through that descriptor ({@code /proc/self/fd/N/NAME}), so the mkdir happens in the directory
   * that was checked even if a concurrent command swaps a name on the way for a link. One that
   * appeared meanwhile is checked by the caller like any other.
   */
  private void createInPinnedParent(RelativePath path, List<String> names) throws IOException {
    List<String> parentNames = names.subList(0, names.size() - 1);
    Path parent = parentNames.isEmpty() ? workDirectory : workDirectory.resolve(String.join("/", parentNames));
    try (PinnedPath pinned = PinnedPath.open(parent)) {
      Files.createDirectory(Path.of("/proc/self/fd", Integer.toString(pinned.descriptor()), names.get(names.size() - 1)));
    } catch (FileAlreadyExistsException e) {
      // Created concurrently, or a link or file appeared: the caller reads its attributes again.
    } catch (NativeCallException e) {
      if (e.code().equals(NativeCallException.PATH_HAS_SYMLINK)) {
        throw symbolicLink(path, parentNames);
      }
      throw new KernelSandboxException(KernelSandboxException.FILE_IO,
          "cannot open " + parent + " to create " + quoted(path.text()) + " in it: " + e.getMessage(), e);
    }
  }

  private void collect(RelativePath path, SecureDirectoryStream<Path> directory, String prefix, int depth, int maxDepth,
      List<FileEntry> entries) throws IOException {
    if (depth > MAX_DEPTH) {
      throw tooDeep(path);
    }
    for (String name : sortedNames(directory)) {
      BasicFileAttributes attributes = attributes(directory, name);
      if (attributes == null) {
        continue;
      }
      String entryPath = prefix.isEmpty() ? name : prefix + "/" + name;
      boolean isDirectory = attributes.isDirectory();
      entries.add(new FileEntry(name, isDirectory ? FileType.DIRECTORY : FileType.FILE, entryPath,
          isDirectory ? 0 : attributes.size(), attributes.lastModifiedTime().toInstant()));
      if (isDirectory && depth < maxDepth) {
        try (SecureDirectoryStream<Path> child = directory.newDirectoryStream(Path.of(name), LinkOption.NOFOLLOW_LINKS)) {
          collect(path, child, entryPath, depth + 1, maxDepth, entries);
        }
      }
    }
  }

  private void deleteContents(RelativePath path, SecureDirectoryStream<Path> directory, int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      throw tooDeep(path);
    }
    for (String name : sortedNames(directory)) {
      BasicFileAttributes attributes = attributes(directory, name);
      if (attributes == null) {
        continue;
      }
      Path entry = Path.of(name);
      if (attributes.isDirectory()) {
        try (SecureDirectoryStream<Path> child = directory.newDirectoryStream(entry, LinkOption.NOFOLLOW_LINKS)) {
          deleteContents(path, child, depth + 1);
        }
        directory.deleteDirectory(entry);
      } else {
        directory.deleteFile(entry);
      }
    }
  }

  private static List<String> sortedNames(SecureDirectoryStream<Path> directory) throws IOException {
    List<String> names = new ArrayList<>();
    try {
      for (Path entry : directory) {
        names.add(entry.getFileName().toString());
      }
    } catch (DirectoryIteratorException e) {
      throw e.getCause();
    }
    names.sort(null);
    return names;
  }

  /** The attributes of {@code name} in {@code directory}, not following a link; null when there is nothing. */
  private static @Nullable BasicFileAttributes attributes(SecureDirectoryStream<Path> directory, String name) throws IOException {
    try {
      return directory.getFileAttributeView(Path.of(name), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .readAttributes();
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  private void requireOpen() {
    if (sandbox.isClosed()) {
      throw new IllegalStateException("the sandbox on " + workDirectory + " is closed");
    }
  }

  private static RelativePath fileOperand(String relativePath) {
    RelativePath path = RelativePath.parse(relativePath);
    if (path.isWorkDirectory()) {
      throw new KernelSandboxException(KernelSandboxException.PATH_INVALID,
          "path " + quoted(relativePath) + " names the work directory itself, not a file in it", null);
    }
    return path;
  }

  private static void requireRegularFile(RelativePath path, BasicFileAttributes attributes) {
    if (attributes.isSymbolicLink()) {
      throw symbolicLink(path, path.names());
    }
    if (!attributes.isRegularFile()) {
      throw new KernelSandboxException(KernelSandboxException.PATH_NOT_REGULAR_FILE,
          "path " + quoted(path.text()) + " is " + (attributes.isDirectory() ? "a directory" : "not a regular file"), null);
    }
  }

  private static KernelSandboxException notFound(RelativePath path) {
    return new KernelSandboxException(KernelSandboxException.PATH_NOT_FOUND,
        "path " + quoted(path.text()) + " does not exist in the work directory", null);
  }

  private static KernelSandboxException notDirectory(RelativePath path, List<String> names) {
    return new KernelSandboxException(KernelSandboxException.PATH_NOT_DIRECTORY,
        "path " + quoted(path.text()) + ": " + quoted(String.join("/", names)) + " is not a directory", null);
  }

  private static KernelSandboxException symbolicLink(RelativePath path, List<String> names) {
    return new KernelSandboxException(KernelSandboxException.PATH_SYMBOLIC_LINK,
        "path " + quoted(path.text()) + " is refused: " + quoted(String.join("/", names))
            + " is a symbolic link, and file operations never follow one",
        null);
  }

  private static KernelSandboxException tooDeep(RelativePath path) {
    return new KernelSandboxException(KernelSandboxException.FILE_IO,
        "path " + quoted(path.text()) + " holds directories deeper than " + MAX_DEPTH + " levels, which are not entered", null);
  }

  private KernelSandboxException io(String operation, RelativePath path, IOException e) {
    return new KernelSandboxException(KernelSandboxException.FILE_IO,
        "cannot " + operation + " " + quoted(path.text()) + " in the work directory " + workDirectory + ": " + e, e);
  }
}
