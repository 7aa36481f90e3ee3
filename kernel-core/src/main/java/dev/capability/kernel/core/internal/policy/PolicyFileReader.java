package dev.capability.kernel.core.internal.policy;

import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_CHANGED;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_INSIDE_REPOSITORY;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_INVALID;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_NOT_FOUND;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_NOT_OWNED;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_NOT_REGULAR_FILE;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_PARENT_WRITABLE;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_PATH_NOT_ABSOLUTE;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_PATH_NOT_CANONICAL;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_TOO_LARGE;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_UNREADABLE;
import static dev.capability.kernel.api.policy.PolicyCodes.POLICY_WRITABLE_BY_OTHERS;

import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.core.internal.ProcessUid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Reads a policy file only when nobody but the process's own user could have written it, and
 * reads it through one descriptor, bounded. All checks run before a byte is parsed.
 *
 * <p>Directories above the file count too: one that another user can write (without the sticky
 * bit) or that another user owns lets that user swap the file for another between the checks and
 * the read, so it is refused ({@code POLICY_PARENT_WRITABLE}). Only the process's user and root
 * may own them. POSIX ACLs are not inspected.
 */
public final class PolicyFileReader {
  private PolicyFileReader() {}

  /** The largest policy file read: 1 MiB. */
  public static final int MAX_BYTES = 1 << 20;

  private static final int GROUP_OR_OTHER_WRITE = 0022;
  private static final int STICKY = 01000;
  private static final int OWNER_READ = 0400;
  private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};

  /**
   * The text of the policy file at {@code file}.
   *
   * @param repository the target repository, which must not contain the file
   * @throws PolicyException naming the first check the file failed
   */
  public static String read(Path file, Optional<Path> repository) {
    return read(file, repository, "policy");
  }

  /**
   * The text of the file at {@code file}, an operator's file as trusted as a policy, with the
   * checks and messages of {@link #read(Path, Optional)}; {@code what} names it in the messages.
   *
   * @param what what the file is, for example {@code evaluation configuration}
   * @throws PolicyException naming the first check the file failed
   */
  public static String read(Path file, Optional<Path> repository, String what) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(repository, "repository");
    if (!file.isAbsolute()) {
      throw new PolicyException(POLICY_PATH_NOT_ABSOLUTE, "the " + what + " path " + show(file) + " must be absolute");
    }
    Path real = realPath(file, what);
    if (!real.equals(file) || hasSymbolicLink(file)) {
      throw new PolicyException(POLICY_PATH_NOT_CANONICAL, "the " + what + " path " + show(file)
          + " must be canonical, without symbolic links, . or ..; its real path is " + show(real));
    }
    if (repository.isPresent()) {
      requireOutside(real, repository.get(), what);
    }
    FileState before = FileState.of(real);
    if (!before.regularFile()) {
      throw new PolicyException(POLICY_NOT_REGULAR_FILE, "the " + what + " path " + show(real) + " is not a regular file");
    }
    if (before.links() != 1) {
      throw new PolicyException(POLICY_NOT_REGULAR_FILE, "the " + what + " file " + show(real) + " has " + before.links()
          + " hard links; another name could lie where the checks here cannot see it");
    }
    int processUid = processUid();
    if (before.uid() != processUid) {
      throw new PolicyException(POLICY_NOT_OWNED, "the " + what + " file " + show(real) + " is owned by uid " + before.uid()
          + ", not by this process's uid " + processUid);
    }
    if ((before.mode() & GROUP_OR_OTHER_WRITE) != 0) {
      throw new PolicyException(POLICY_WRITABLE_BY_OTHERS, "the " + what + " file " + show(real) + " has mode "
          + Integer.toOctalString(before.mode() & 07777) + "; it must not be group- or world-writable");
    }
    requireSafeParents(real, processUid, what);
    if ((before.mode() & OWNER_READ) == 0) {
      throw new PolicyException(POLICY_UNREADABLE, "the " + what + " file " + show(real) + " lacks owner read permission");
    }
    if (before.size() > MAX_BYTES) {
      throw new PolicyException(POLICY_TOO_LARGE, "the " + what + " file " + show(real) + " has " + before.size()
          + " bytes; at most " + MAX_BYTES + " are read");
    }
    byte[] bytes = readBounded(real, (int) before.size(), what);
    FileState after = FileState.of(real);
    if (!after.equals(before) || bytes.length != before.size()) {
      throw new PolicyException(POLICY_CHANGED, "the " + what + " file " + show(real) + " changed while it was read");
    }
    return decode(bytes, real, what);
  }

  private static Path realPath(Path file, String what) {
    try {
      return file.toRealPath();
    } catch (NoSuchFileException e) {
      throw new PolicyException(POLICY_NOT_FOUND, "no " + what + " file at " + show(file), e);
    } catch (IOException e) {
      throw new PolicyException(POLICY_UNREADABLE, "the " + what + " path " + show(file) + " cannot be resolved: " + e, e);
    }
  }

  private static boolean hasSymbolicLink(Path file) {
    Path prefix = file.getRoot();
    for (Path name : file) {
      prefix = prefix.resolve(name);
      if (Files.isSymbolicLink(prefix)) {
        return true;
      }
    }
    return false;
  }

  private static void requireOutside(Path real, Path repository, String what) {
    Path lexical = repository.toAbsolutePath().normalize();
    Path canonical;
    try {
      canonical = repository.toRealPath();
    } catch (IOException e) {
      canonical = lexical;
    }
    if (real.startsWith(canonical) || real.startsWith(lexical)) {
      throw new PolicyException(POLICY_INSIDE_REPOSITORY, "the " + what + " file " + show(real)
          + " lies inside the target repository " + show(canonical) + ", where the commands it governs could change it");
    }
  }

  private static void requireSafeParents(Path real, int processUid, String what) {
    for (Path dir = real.getParent(); dir != null; dir = dir.getParent()) {
      FileState state = FileState.of(dir);
      if (state.uid() != processUid && state.uid() != 0) {
        throw new PolicyException(POLICY_PARENT_WRITABLE, "the directory " + show(dir) + " above the " + what + " file is owned by uid "
            + state.uid() + ", who could replace the file");
      }
      if ((state.mode() & GROUP_OR_OTHER_WRITE) != 0 && (state.mode() & STICKY) == 0) {
        throw new PolicyException(POLICY_PARENT_WRITABLE, "the directory " + show(dir) + " above the " + what + " file has mode "
            + Integer.toOctalString(state.mode() & 07777) + "; others could replace the file (make it not group- or world-writable,"
            + " or sticky)");
      }
    }
  }

  /**
   * Reads at most one byte more than the {@code expected} size the file had when it was checked:
   * a file that grew since reads longer and is then refused as changed, without a buffer of the
   * largest size allowed on every read.
   */
  private static byte[] readBounded(Path real, int expected, String what) {
    ByteBuffer buffer = ByteBuffer.allocate(Math.min(expected, MAX_BYTES) + 1);
    try (SeekableByteChannel channel = Files.newByteChannel(real, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
      int read;
      do {
        read = channel.read(buffer);
      } while (read >= 0 && buffer.hasRemaining());
    } catch (IOException e) {
      throw new PolicyException(POLICY_UNREADABLE, "the " + what + " file " + show(real) + " cannot be read: " + e, e);
    }
    if (buffer.position() > MAX_BYTES) {
      throw new PolicyException(POLICY_TOO_LARGE, "the " + what + " file " + show(real) + " grew past " + MAX_BYTES + " bytes");
    }
    return Arrays.copyOf(buffer.array(), buffer.position());
  }

  /**
   * The text of {@code bytes}, which must be strict UTF-8. The last text of each file is kept: a
   * server reads its unchanged policy file on every call, and comparing bytes is cheaper than
   * decoding them again.
   */
  private static String decode(byte[] bytes, Path real, String what) {
    Decoded last = DECODED.get(real);
    if (last != null && Arrays.equals(last.bytes(), bytes)) {
      return last.text();
    }
    String text = strictUtf8(bytes, real, what);
    if (DECODED.size() >= MAX_DECODED) {
      DECODED.clear();
    }
    DECODED.put(real, new Decoded(bytes, text));
    return text;
  }

  private record Decoded(byte[] bytes, String text) {}

  private static final int MAX_DECODED = 64;
  private static final Map<Path, Decoded> DECODED = new ConcurrentHashMap<>();

  private static String strictUtf8(byte[] bytes, Path real, String what) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      throw new PolicyException(POLICY_INVALID, "the " + what + " file " + show(real) + " is not UTF-8 at byte offset " + in.position());
    }
    decoder.flush(out);
    return out.flip().toString();
  }

  /** The process's effective user, as the owner of its own {@code /proc} entry. */
  private static int processUid() {
    try {
      return ProcessUid.effective();
    } catch (IOException | UnsupportedOperationException e) {
      throw new PolicyException(POLICY_UNREADABLE, "the process's user cannot be determined from /proc/self: " + e, e);
    }
  }

  private static String show(Path path) {
    return Printable.quote(path.toString());
  }

  /** What the checks look at, read in one stat without following links; compared again after the read. */
  private record FileState(Object fileKey, long size, long modifiedNanos, long changedNanos, int uid, int mode, int links) {
    private static final int TYPE_MASK = 0170000;
    private static final int REGULAR = 0100000;

    static FileState of(Path path) {
      Map<String, Object> attributes;
      try {
        attributes = Files.readAttributes(path, "unix:*", NO_FOLLOW);
      } catch (IOException e) {
        throw new PolicyException(POLICY_UNREADABLE, "the attributes of " + show(path) + " cannot be read: " + e, e);
      }
      return new FileState(
          attributes.get("fileKey"),
          (Long) attributes.get("size"),
          ((FileTime) attributes.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS),
          ((FileTime) attributes.get("ctime")).to(TimeUnit.NANOSECONDS),
          (Integer) attributes.get("uid"),
          (Integer) attributes.get("mode"),
          (Integer) attributes.get("nlink"));
    }

    boolean regularFile() {
      return (mode & TYPE_MASK) == REGULAR;
    }
  }
}
