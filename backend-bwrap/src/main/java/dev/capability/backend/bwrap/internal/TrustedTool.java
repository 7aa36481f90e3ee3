package dev.capability.backend.bwrap.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A host program the launcher runs before the sandbox exists ({@code bwrap}, {@code setpriv},
 * {@code flock}, {@code prlimit}, {@code mkfifo}), some of them as root. Only fixed absolute paths
 * are used, never a {@code PATH} lookup, and only files that nobody but root can replace: owned by
 * root, not writable by group or others, in directories with the same property, reached without
 * symlinks.
 */
final class TrustedTool {
  private static final int GROUP_OR_OTHER_WRITE = 0022;
  private static final int SET_UID = 04000;

  private TrustedTool() {}

  /** The first of {@code candidates} that exists and passes {@link #problem}. */
  static Optional<Path> find(List<Path> candidates, boolean forbidSetuid) {
    for (Path candidate : candidates) {
      if (Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)
          && problem(candidate, forbidSetuid).isEmpty()) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Where {@code name} is looked for. */
  static List<Path> systemPaths(String name) {
    return List.of(Path.of("/usr/bin", name), Path.of("/bin", name));
  }

  /** Why {@code path} cannot be trusted, or empty when it can. */
  static Optional<String> problem(Path path, boolean forbidSetuid) {
    if (!path.isAbsolute() || !path.normalize().equals(path)) {
      return Optional.of(path + " is not a normal absolute path");
    }
    List<Path> chain = new ArrayList<>();
    Path current = path.getRoot();
    chain.add(current);
    for (Path name : path) {
      current = current.resolve(name);
      chain.add(current);
    }
    for (int i = 0; i < chain.size(); i++) {
      Path step = chain.get(i);
      boolean last = i == chain.size() - 1;
      try {
        BasicFileAttributes attributes =
            Files.readAttributes(step, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attributes.isSymbolicLink()) {
          return Optional.of(path + " passes through the symlink " + step);
        }
        if (last && !attributes.isRegularFile()) {
          return Optional.of(path + " is not a regular file");
        }
        int owner = (Integer) Files.getAttribute(step, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        int mode = (Integer) Files.getAttribute(step, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        if (owner != 0) {
          return Optional.of(step + " is owned by uid " + owner + ", not root");
        }
        if ((mode & GROUP_OR_OTHER_WRITE) != 0) {
          return Optional.of(step + " is writable by group or others");
        }
        if (last && forbidSetuid && (mode & SET_UID) != 0) {
          return Optional.of(
              path + " is set-uid; only an unprivileged bubblewrap (user namespaces) is supported");
        }
        if (last && (mode & 0111) == 0) {
          return Optional.of(path + " is not executable");
        }
      } catch (IOException e) {
        return Optional.of("cannot inspect " + step + ": " + e.getMessage());
      }
    }
    return Optional.empty();
  }
}
