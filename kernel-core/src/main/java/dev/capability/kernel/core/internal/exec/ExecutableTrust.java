package dev.capability.kernel.core.internal.exec;

import static dev.capability.kernel.api.policy.PolicyCodes.EXECUTABLE_UNREADABLE;
import static dev.capability.kernel.api.policy.PolicyCodes.EXECUTABLE_WRITABLE_BY_OTHERS;
import static dev.capability.kernel.api.policy.PolicyCodes.REPOSITORY_EXECUTABLE_LINK;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.core.internal.ProcessUid;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntSupplier;

/**
 * Stage 4, once the executable is pinned: whether the bytes that will run could come from someone
 * the operator did not choose. Judged on the pinned file itself (through its descriptor, so a file
 * renamed over the path meanwhile changes nothing) and on the directories of its canonical path.
 *
 * <ul>
 *   <li>A hard link to a file inside the repository is a repository executable under another name:
 *       whoever writes the repository rewrites it. It is refused like one
 *       ({@code REPOSITORY_EXECUTABLE_LINK}) unless the policy allows repository executables. Only a
 *       file with more than one link can be one; for such a file the whole repository is walked,
 *       {@code .git} included, links not followed, for a regular file with the same device and
 *       inode. The walk stats every entry once and stops at the first match: the cost of the
 *       snapshot that every run in a repository takes anyway, and only for multiply linked
 *       executables. A directory it cannot read could hide the link, so it refuses then too.
 *   <li>A file someone other than root and the kernel's user could have written is refused
 *       ({@code EXECUTABLE_WRITABLE_BY_OTHERS}): a world-writable file, whoever owns it; and a file
 *       another user owns when it is group-writable or when any directory on its canonical path is
 *       group- or world-writable. In such a directory anyone (the sandbox's own uid, for one) can
 *       create a file, and the file's owner is then exactly who planted it; a sticky bit does not
 *       stop creation. A file another user owns in directories that only their owners can write
 *       (a Homebrew prefix owned by its own user, say) stays allowed.
 * </ul>
 *
 * POSIX ACLs are not consulted.
 */
public final class ExecutableTrust {
  private static final int GROUP_WRITE = 0020;
  private static final int OTHER_WRITE = 0002;
  private static final String LAYER = ExecutableResolver.LAYER;

  private final IntSupplier kernelUid;

  /** @param kernelUid the user the kernel acts as, besides root the only trusted owner */
  ExecutableTrust(IntSupplier kernelUid) {
    this.kernelUid = Objects.requireNonNull(kernelUid, "kernelUid");
  }

  /** Trusts root and this process's effective user (the owner of {@code /proc/self}). */
  public static ExecutableTrust forThisProcess() {
    return new ExecutableTrust(ExecutableTrust::processUid);
  }

  /**
   * Why the pinned executable must not run; empty when nothing speaks against it.
   *
   * @param executable the canonical path the executable was resolved to
   * @param pinnedFile a path that reaches the very file that will run, such as its pinned
   *     descriptor's {@code /proc/<pid>/fd/<n>}
   * @param repository the canonical target repository, if any
   * @param allowRepositoryExecutables the policy's switch for executables inside the repository
   */
  public Optional<Decision> refusal(
      Path executable, Path pinnedFile, Optional<Path> repository, boolean allowRepositoryExecutables) {
    Map<String, Object> file;
    Object fileKey;
    try {
      file = Files.readAttributes(pinnedFile, "unix:uid,mode,nlink");
      fileKey = Files.readAttributes(pinnedFile, BasicFileAttributes.class).fileKey();
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.of(denied(EXECUTABLE_UNREADABLE, "executable.writers",
          "the owner, mode and links of " + executable + " cannot be read: " + e.getMessage()));
    }
    Optional<Decision> writers = writers(executable, (Integer) file.get("uid"), (Integer) file.get("mode"));
    if (writers.isPresent()) {
      return writers;
    }
    if (repository.isPresent() && !allowRepositoryExecutables && (Integer) file.get("nlink") > 1) {
      return hardLinkInto(repository.get(), executable, fileKey);
    }
    return Optional.empty();
  }

  private Optional<Decision> writers(Path executable, int owner, int mode) {
    if ((mode & OTHER_WRITE) != 0) {
      return Optional.of(denied(EXECUTABLE_WRITABLE_BY_OTHERS, "executable.writers",
          executable + " has mode " + octal(mode) + ": anyone can rewrite it"));
    }
    int self;
    try {
      self = kernelUid.getAsInt();
    } catch (RuntimeException e) {
      return Optional.of(denied(EXECUTABLE_UNREADABLE, "executable.writers",
          "cannot tell whether " + executable + " has a trusted owner: " + e.getMessage()));
    }
    if (owner == 0 || owner == self) {
      return Optional.empty();
    }
    if ((mode & GROUP_WRITE) != 0) {
      return Optional.of(denied(EXECUTABLE_WRITABLE_BY_OTHERS, "executable.writers",
          executable + " is owned by uid " + owner + " (neither root nor the kernel's uid " + self + ") and has mode "
              + octal(mode) + ": its group can rewrite it"));
    }
    for (Path dir = executable.getParent(); dir != null; dir = dir.getParent()) {
      int dirMode;
      try {
        dirMode = (Integer) Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      } catch (IOException | UnsupportedOperationException e) {
        return Optional.of(denied(EXECUTABLE_UNREADABLE, "executable.writers",
            "the directory " + dir + " above " + executable + " cannot be read: " + e.getMessage()));
      }
      if ((dirMode & (GROUP_WRITE | OTHER_WRITE)) != 0) {
        return Optional.of(denied(EXECUTABLE_WRITABLE_BY_OTHERS, "executable.writers",
            executable + " is owned by uid " + owner + " (neither root nor the kernel's uid " + self + ") and the directory "
                + dir + " above it has mode " + octal(dirMode) + ", so others could have put it there"));
      }
    }
    return Optional.empty();
  }

  private static Optional<Decision> hardLinkInto(Path repository, Path executable, Object fileKey) {
    if (fileKey == null) {
      return Optional.of(denied(REPOSITORY_EXECUTABLE_LINK, "allowRepositoryExecutables",
          executable + " has more than one link and this file system gives no file identity to compare with the repository's files"));
    }
    Path[] found = new Path[1];
    try {
      Files.walkFileTree(repository, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
          if (attributes.isRegularFile() && fileKey.equals(attributes.fileKey())) {
            found[0] = file;
            return FileVisitResult.TERMINATE;
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      return Optional.of(denied(REPOSITORY_EXECUTABLE_LINK, "allowRepositoryExecutables",
          executable + " has more than one link, and the repository cannot be searched for the others: " + e.getMessage()));
    }
    if (found[0] == null) {
      return Optional.empty();
    }
    return Optional.of(denied(REPOSITORY_EXECUTABLE_LINK, "allowRepositoryExecutables",
        executable + " is a hard link to " + repository.relativize(found[0]) + " inside the target repository;"
            + " the policy does not allow repository executables"));
  }

  private static Decision denied(String code, String rule, String message) {
    return Decision.deny(code, LAYER, rule, 0, message);
  }

  private static String octal(int mode) {
    return "0" + Integer.toOctalString(mode & 07777);
  }

  private static int processUid() {
    try {
      return ProcessUid.effective();
    } catch (IOException e) {
      throw new IllegalStateException("this process's uid cannot be read from /proc/self: " + e.getMessage(), e);
    }
  }
}
