package dev.capability.backend.docker.internal;

import dev.capability.kernel.api.backend.LaunchFailedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;

/**
 * Refuses a bind source that someone other than this JVM could swap for a symlink between the
 * launch's checks and the daemon's own resolution of the path. The daemon resolves a bind's source
 * itself, as root, when it starts the container; a directory on the source's path that another
 * uid can write lets that uid replace the next component with a symlink, and the daemon would then
 * show the container whatever the symlink names, {@code /root} or {@code /etc/shadow}'s directory
 * included.
 *
 * <p>A directory from {@code /} down to the source's parent is safe when its owner is root or this
 * JVM's uid, it is group-writable only for root's group or this JVM's group, and it is
 * world-writable only with the sticky bit set and a next component owned by root or this JVM's
 * uid (so no one else may rename or remove it). The container's uid and gid are never trusted,
 * even when this JVM shares them: another container of the same uid runs concurrently.
 */
final class BindSources {
  private static final Path SELF = Path.of("/proc/self");
  private static final int STICKY = 01000;
  private static final int GROUP_WRITE = 0020;
  private static final int OTHER_WRITE = 0002;

  private final int kernelUid;
  private final int kernelGid;
  private final int sandboxUid;
  private final int sandboxGid;

  BindSources(int kernelUid, int kernelGid, int sandboxUid, int sandboxGid) {
    this.kernelUid = kernelUid;
    this.kernelGid = kernelGid;
    this.sandboxUid = sandboxUid;
    this.sandboxGid = sandboxGid;
  }

  /** This JVM's effective uid and gid (the owner of {@code /proc/self}), against the settings' uid. */
  static BindSources forThisProcess(DockerSettings settings) {
    Map<String, Object> self = unix(SELF, true);
    return new BindSources(
        (Integer) self.get("uid"), (Integer) self.get("gid"), settings.uid(), settings.gid());
  }

  /**
   * Refuses {@code source} when a directory above it could be written by another party; the
   * source itself was already walked without following symlinks.
   *
   * @throws LaunchFailedException code {@link LaunchFailedException#BIND_SOURCE_SWAPPABLE}, naming
   *     the source and the directory
   */
  void requireUnswappable(Path source, String what) {
    Path directory = source.getRoot();
    for (Path name : source) {
      Path next = directory.resolve(name);
      Map<String, Object> attributes = unix(directory, false);
      int owner = (Integer) attributes.get("uid");
      int group = (Integer) attributes.get("gid");
      int mode = (Integer) attributes.get("mode");
      String writer = null;
      if (!trustedUser(owner)) {
        writer = "is owned by uid " + owner;
      } else if ((mode & (GROUP_WRITE | OTHER_WRITE)) != 0 && (mode & STICKY) != 0) {
        int nextOwner = (Integer) unix(next, false).get("uid");
        if (!trustedUser(nextOwner)) {
          writer = "is sticky but " + next + " is owned by uid " + nextOwner;
        }
      } else if ((mode & OTHER_WRITE) != 0) {
        writer = "is writable by every user";
      } else if ((mode & GROUP_WRITE) != 0 && !trustedGroup(group)) {
        writer = "is writable by group " + group;
      }
      if (writer != null) {
        throw LaunchFailedException.withCode(
            LaunchFailedException.BIND_SOURCE_SWAPPABLE,
            what
                + " "
                + source
                + " cannot be bound: "
                + directory
                + " "
                + writer
                + ", who could swap "
                + next
                + " for a symlink before the daemon resolves the path");
      }
      directory = next;
    }
  }

  private boolean trustedUser(int uid) {
    return (uid == 0 || uid == kernelUid) && uid != sandboxUid;
  }

  private boolean trustedGroup(int gid) {
    return (gid == 0 || gid == kernelGid) && gid != sandboxGid;
  }

  private static Map<String, Object> unix(Path path, boolean follow) {
    try {
      return follow
          ? Files.readAttributes(path, "unix:uid,gid,mode")
          : Files.readAttributes(path, "unix:uid,gid,mode", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException e) {
      throw new LaunchFailedException("cannot read the owner and mode of " + path + ": " + e, e);
    }
  }
}
