package dev.capability.backend.bwrap.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Finds the cgroup v1 hierarchies of the memory, pids and cpu controllers, for hosts where they
 * are not available to cgroup v2 (a hybrid layout). Only a directory where a child cgroup with the
 * controller's limit file can be created and removed is used.
 */
final class LegacyCgroups {
  /** The limit file each controller's run cgroup must have. */
  private static final Map<String, String> LIMIT_FILES =
      Map.of(
          CgroupParent.MEMORY,
          "memory.limit_in_bytes",
          CgroupParent.PIDS,
          "pids.max",
          CgroupParent.CPU,
          "cpu.cfs_quota_us");

  private LegacyCgroups() {}

  /**
   * For each of {@code wanted} not in {@code v2Controllers}, this JVM's own cgroup v1 directory of
   * that controller, when run cgroups can be made under it. Never throws.
   */
  static Map<String, Path> parents(List<String> wanted, Set<String> v2Controllers) {
    Map<String, Path> parents = new LinkedHashMap<>();
    for (String controller : wanted) {
      if (v2Controllers.contains(controller)) {
        continue;
      }
      try {
        own(controller)
            .filter(dir -> usable(dir, controller))
            .ifPresent(dir -> parents.put(controller, dir));
      } catch (IOException | RuntimeException e) {
        // No usable v1 hierarchy for this controller; the probe reports the limit as missing.
      }
    }
    return parents;
  }

  private static boolean usable(Path parent, String controller) {
    Path child = parent.resolve("capability-probe-" + UUID.randomUUID());
    try {
      Files.createDirectory(child);
    } catch (IOException e) {
      return false;
    }
    try {
      return Files.isRegularFile(child.resolve(LIMIT_FILES.get(controller)))
          && Files.isRegularFile(child.resolve("cgroup.procs"));
    } finally {
      try {
        Files.delete(child);
      } catch (IOException e) {
        // An empty cgroup just made is always removable; nothing more to do if it is not.
      }
    }
  }

  /** This JVM's cgroup directory in the v1 hierarchy of {@code controller}. */
  static Optional<Path> own(String controller) throws IOException {
    return of("self", controller);
  }

  /**
   * The cgroup directory of process {@code pid} ({@code self} for this JVM) in the v1 hierarchy
   * of {@code controller}, as mounted in this JVM's mount namespace.
   */
  static Optional<Path> of(String pid, String controller) throws IOException {
    String own = null;
    for (String line :
        Files.readAllLines(Path.of("/proc", pid, "cgroup"), StandardCharsets.UTF_8)) {
      String[] fields = line.split(":", 3);
      if (fields.length == 3 && Arrays.asList(fields[1].split(",")).contains(controller)) {
        own = fields[2];
      }
    }
    return CgroupParent.mountedDirectory(own, source -> source.length >= 3
        && source[0].equals("cgroup")
        && Arrays.asList(source[2].split(",")).contains(controller));
  }
}
