package dev.capability.backend.support;

import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Set;

/**
 * Makes sure the bytes that run are the bytes the kernel hashed. Inside a sandbox or container the
 * kernel's exec path ({@code /proc/<jvm-pid>/fd/<n>}) does not exist (fresh {@code /proc}, another
 * pid namespace), and a dropped uid could not open another uid's descriptor anyway. So this JVM reads
 * the hashed file through that descriptor into a private copy, hashing as it copies, and refuses
 * the launch when the digest differs. The copy is owned by this JVM's user, mode 0555, in a private
 * directory nobody else can write; the sandbox or container sees it read-only at the executable's canonical
 * path, so {@code /proc/self/exe} shows the real path.
 */
public final class PinnedCopy {
  private static final int BUFFER = 1 << 16;

  private PinnedCopy() {}

  /**
   * Copies the pinned executable to {@code target}, which must not exist.
   *
   * @throws LaunchFailedException when it cannot be read, or its bytes are not the hashed ones
   */
  public static void copy(PinnedExecutable executable, Path target) {
    Path source = Path.of(executable.execPath());
    MessageDigest digest = Sha256.newDigest();
    try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
        FileChannel out =
            FileChannel.open(
                target,
                Set.<OpenOption>of(
                    StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")))) {
      ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
      while (in.read(buffer) != -1) {
        buffer.flip();
        digest.update(buffer.duplicate());
        while (buffer.hasRemaining()) {
          out.write(buffer);
        }
        buffer.clear();
      }
    } catch (IOException e) {
      throw new LaunchFailedException(
          "cannot copy the pinned executable "
              + executable.path()
              + " from "
              + executable.execPath()
              + ": "
              + e,
          e);
    }
    String actual = Sha256.hex(digest);
    if (!actual.equals(executable.sha256())) {
      throw new LaunchFailedException(
          "the executable "
              + executable.path()
              + " read through "
              + executable.execPath()
              + " has SHA-256 "
              + actual
              + ", not the pinned "
              + executable.sha256()
              + "; it changed after it was hashed, refusing to run it");
    }
    try {
      Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("r-xr-xr-x"));
    } catch (IOException e) {
      throw new LaunchFailedException("cannot make the executable copy read-only: " + e, e);
    }
  }
}
