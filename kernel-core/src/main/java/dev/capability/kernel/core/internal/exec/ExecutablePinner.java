package dev.capability.kernel.core.internal.exec;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Opens an executable, hashes it through the open descriptor, and hands out
 * {@code /proc/<pid>/fd/<n>} as the path to execute. Whatever is renamed over the original path
 * afterwards, {@code execve} of the descriptor path runs the inode that was hashed, and the
 * program's {@code /proc/self/exe} still names its real location, so programs that find their
 * own files relative to it ({@code java}, {@code mvn}) keep working.
 */
public final class ExecutablePinner {
  /** Error code when this platform offers no way to pin the executable. */
  public static final String PINNING_UNAVAILABLE = "PINNING_UNAVAILABLE";

  private static final Path SELF_FD = Path.of("/proc/self/fd");
  /** Serializes descriptor discovery: the descriptor is found as the one that appeared. */
  private static final Object DISCOVERY_LOCK = new Object();
  private static final int HASH_ATTEMPTS = 3;

  /**
   * Shared by every kernel in the JVM: a server that builds a kernel per request (the MCP server
   * reads the operator's policy afresh for each call) would otherwise hash a multi-megabyte
   * executable on every call. An entry is keyed by device, inode, size, modification and change
   * time, which no writer can keep unchanged, so sharing it across kernels is as sound as within one.
   */
  private static final DigestCache CACHE = new DigestCache();
  private final long pid = ProcessHandle.current().pid();

  /** A pinned executable and the descriptor that keeps it pinned until closed. */
  public static final class Pinned implements AutoCloseable {
    private final PinnedExecutable executable;
    private final FileChannel channel;

    private Pinned(PinnedExecutable executable, FileChannel channel) {
      this.executable = executable;
      this.channel = channel;
    }

    public PinnedExecutable executable() {
      return executable;
    }

    /** Releases the descriptor; call once the launched process has ended. */
    @Override
    public void close() {
      try {
        channel.close();
      } catch (IOException e) {
        throw new UncheckedIOException("could not close the pinned descriptor of " + executable.path(), e);
      }
    }
  }

  /**
   * Pins {@code canonicalPath}.
   *
   * @throws CapabilityException {@code PINNING_UNAVAILABLE} without {@code /proc/self/fd}
   * @throws UncheckedIOException when the file cannot be opened or read
   */
  public Pinned pin(Path canonicalPath) {
    if (!Files.isDirectory(SELF_FD)) {
      throw new CapabilityException(
          PINNING_UNAVAILABLE,
          "cannot pin executables without /proc/self/fd; the kernel needs Linux with /proc mounted");
    }
    try {
      OpenDescriptor open = openAndFind(canonicalPath);
      try {
        Path fdPath = SELF_FD.resolve(Integer.toString(open.fd));
        String sha256 = digest(open.channel, fdPath);
        PinnedExecutable pinned = new PinnedExecutable(
            canonicalPath, sha256, "/proc/" + pid + "/fd/" + open.fd, PinnedExecutable.Pinning.PROC_FD);
        return new Pinned(pinned, open.channel);
      } catch (IOException | RuntimeException e) {
        open.channel.close();
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not open and hash the executable " + canonicalPath, e);
    }
  }

  private record OpenDescriptor(FileChannel channel, int fd) {}

  private static OpenDescriptor openAndFind(Path canonicalPath) throws IOException {
    synchronized (DISCOVERY_LOCK) {
      Set<Integer> alreadyOpen = descriptorsPointingTo(canonicalPath);
      FileChannel channel = FileChannel.open(canonicalPath, StandardOpenOption.READ);
      try {
        List<Integer> candidates = new ArrayList<>(descriptorsPointingTo(canonicalPath));
        candidates.removeAll(alreadyOpen);
        if (candidates.size() != 1) {
          throw new IOException("could not tell which descriptor was opened for " + canonicalPath
              + " (candidates " + candidates + "); another thread opened the same file at the same moment, retry");
        }
        return new OpenDescriptor(channel, candidates.get(0));
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
    }
  }

  /**
   * Descriptors of this process open on {@code target}. Comparing link targets, not bare
   * numbers, matters: the directory stream that lists descriptors holds one itself, and the
   * channel opened next may reuse its number.
   */
  private static Set<Integer> descriptorsPointingTo(Path target) throws IOException {
    Set<Integer> fds = new HashSet<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(SELF_FD)) {
      for (Path entry : entries) {
        if (pointsTo(entry, target)) {
          fds.add(Integer.parseInt(entry.getFileName().toString()));
        }
      }
    }
    return fds;
  }

  /** True when the descriptor is open on {@code target}, or on the file that was at {@code target} until it was replaced. */
  private static boolean pointsTo(Path descriptor, Path target) {
    try {
      String link = Files.readSymbolicLink(descriptor).toString();
      return link.equals(target.toString()) || link.equals(target + " (deleted)");
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Hashes through the descriptor. The stat data before and after must agree, else the file was
   * changed while it was read. Renaming another file over the path also changes the pinned
   * inode's change time (its link count drops), so a disagreement is retried a few times: a
   * replaced inode then stays still, a file being rewritten does not.
   */
  private String digest(FileChannel channel, Path fdPath) throws IOException {
    for (int attempt = 0; attempt < HASH_ATTEMPTS; attempt++) {
      FileIdentity before = FileIdentity.of(fdPath);
      var cached = CACHE.get(before);
      if (cached.isPresent()) {
        return cached.get();
      }
      MessageDigest digest = Sha256.newDigest();
      ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
      long position = 0;
      int read;
      while ((read = channel.read(buffer, position)) > 0) {
        position += read;
        buffer.flip();
        digest.update(buffer);
        buffer.clear();
      }
      FileIdentity after = FileIdentity.of(fdPath);
      if (before.equals(after) && position == after.size()) {
        String sha256 = Sha256.hex(digest);
        CACHE.put(after, sha256);
        return sha256;
      }
    }
    throw new IOException("the executable kept changing while it was being hashed; refusing to run it");
  }
}
