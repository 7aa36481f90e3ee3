package dev.capability.backend.bwrap.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Who a sandbox runs as on the host. When this JVM runs as root, sandboxes never do: they run as
 * the configured unprivileged uid and gid, with no supplementary groups. Otherwise they run as this
 * JVM's own user.
 *
 * @param uid the host uid of every sandbox process
 * @param gid the host gid of every sandbox process
 * @param dropsRoot true when this JVM is root and the launcher drops to {@code uid}
 */
record SandboxIdentity(int uid, int gid, boolean dropsRoot) {
  private static final int SEARCH = 1;
  private static final int WRITE = 2;

  SandboxIdentity {
    if (uid == 0) {
      throw new IllegalArgumentException("a sandbox never runs as uid 0");
    }
  }

  /** The identity for sandboxes started by this JVM. */
  static SandboxIdentity forThisJvm(BwrapSettings settings) {
    JvmCredentials jvm = JvmCredentials.current();
    return jvm.effectiveUid() == 0
        ? new SandboxIdentity(settings.uid(), settings.gid(), true)
        : new SandboxIdentity(jvm.effectiveUid(), jvm.effectiveGid(), false);
  }

  /**
   * True when every directory on the way to {@code path}, and {@code path} itself, is searchable.
   */
  boolean canReach(Path path) {
    Path current = path.getRoot();
    if (!allows(current, SEARCH)) {
      return false;
    }
    for (Path name : path) {
      current = current.resolve(name);
      if (Files.isDirectory(current, LinkOption.NOFOLLOW_LINKS) && !allows(current, SEARCH)) {
        return false;
      }
    }
    return true;
  }

  /** True when this identity may create and remove entries in {@code directory}. */
  boolean canWriteIn(Path directory) {
    return allows(directory, SEARCH | WRITE);
  }

  /** Why this identity cannot reach {@code path}, the {@code what} of a sandbox, or empty when it can. */
  Optional<String> reachProblem(Path path, String what) {
    if (canReach(path)) {
      return Optional.empty();
    }
    return Optional.of(what + " " + path + " cannot be reached by the sandbox's uid " + uid + " (gid " + gid
        + ", no supplementary groups): every directory on the way must grant it search (x) permission");
  }

  /** Why this identity cannot create and remove entries in {@code directory}, or empty when it can. */
  Optional<String> writeProblem(Path directory) {
    if (canWriteIn(directory)) {
      return Optional.empty();
    }
    return Optional.of("writable root " + directory + " is not writable by the sandbox's uid " + uid + " (gid " + gid
        + ", no supplementary groups); grant that uid write and search permission on this directory (for example"
        + " chown it to uid " + uid + "), or configure " + BwrapSettings.UID + " to a uid that owns it."
        + " The backend never widens permissions itself");
  }

  private boolean allows(Path path, int wanted) {
    if (!dropsRoot) {
      // The sandbox runs as this JVM's user: access(2) answers exactly, ACLs included.
      return ((wanted & SEARCH) == 0 || Files.isExecutable(path))
          && ((wanted & WRITE) == 0 || Files.isWritable(path));
    }
    try {
      int owner = (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      int group = (Integer) Files.getAttribute(path, "unix:gid", LinkOption.NOFOLLOW_LINKS);
      int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      // Permission classes are exclusive: the owner class applies to the owner even when the
      // group or other bits would grant more. POSIX ACLs are not consulted.
      int bits = owner == uid ? (mode >> 6) & 7 : group == gid ? (mode >> 3) & 7 : mode & 7;
      return ((wanted & SEARCH) == 0 || (bits & 1) != 0)
          && ((wanted & WRITE) == 0 || (bits & 2) != 0);
    } catch (IOException e) {
      return false;
    }
  }

  /** This JVM's effective uid and gid, from {@code /proc/self/status}. */
  record JvmCredentials(int effectiveUid, int effectiveGid) {
    static JvmCredentials current() {
      try {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/status"));
        return new JvmCredentials(effective(lines, "Uid:"), effective(lines, "Gid:"));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read /proc/self/status", e);
      }
    }

    private static int effective(List<String> lines, String label) {
      for (String line : lines) {
        if (line.startsWith(label)) {
          // Real, effective, saved set, filesystem.
          String[] ids = line.substring(label.length()).trim().split("\\s+");
          return Integer.parseInt(ids[1]);
        }
      }
      throw new IllegalStateException("/proc/self/status has no " + label + " line");
    }
  }
}
