package dev.capability.backend.bwrap.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * A writable cgroup v2 directory under which each run gets its own cgroup, and the controllers
 * enabled for those children. On a hybrid host, where the memory, pids and cpu controllers are
 * bound to cgroup v1 hierarchies instead, each run also gets a cgroup in those hierarchies
 * (writable there only as root): the v2 cgroup ends the run, the v1 ones limit it.
 *
 * @param directory the parent cgroup directory
 * @param controllers the controllers in its {@code cgroup.subtree_control}
 * @param legacyParents per controller not among {@code controllers}, the writable cgroup v1
 *     directory (this JVM's own in that hierarchy) under which run cgroups are made
 */
record CgroupParent(Path directory, Set<String> controllers, Map<String, Path> legacyParents) {
  static final String MEMORY = "memory";
  static final String PIDS = "pids";
  static final String CPU = "cpu";
  private static final String RUN_PREFIX = "capability-run-";

  CgroupParent {
    Objects.requireNonNull(directory, "directory");
    controllers = Set.copyOf(controllers);
    legacyParents = Map.copyOf(legacyParents);
  }

  /** True when runs get {@code controller}'s limits, from cgroup v2 or v1. */
  boolean limits(String controller) {
    return controllers.contains(controller) || legacyParents.containsKey(controller);
  }

  /**
   * The outcome of looking for a usable parent.
   *
   * @param parent the parent, when cgroups can be used
   * @param explanation what was found, for diagnostics
   */
  record Probe(Optional<CgroupParent> parent, String explanation) {
    Probe {
      Objects.requireNonNull(parent, "parent");
      Objects.requireNonNull(explanation, "explanation");
    }
  }

  /**
   * Finds and tests the parent {@code choice} names: that a child cgroup can be created there, has
   * {@code cgroup.kill}, and can be removed again; and enables the controllers {@code limits} need
   * when the parent allows it. Never throws.
   */
  static Probe probe(BwrapSettings.CgroupChoice choice, ResourceLimits limits) {
    try {
      Optional<Path> directory;
      if (choice instanceof BwrapSettings.CgroupChoice.Disabled) {
        return new Probe(Optional.empty(), "disabled by " + BwrapSettings.CGROUP + "=none");
      } else if (choice instanceof BwrapSettings.CgroupChoice.Under under) {
        directory = Optional.of(under.directory());
      } else {
        directory = ownCgroupDirectory();
        if (directory.isEmpty()) {
          return new Probe(Optional.empty(), "no cgroup v2 hierarchy is mounted for this process");
        }
      }
      Path parent = directory.get();
      if (!Files.isRegularFile(parent.resolve("cgroup.procs"))) {
        return new Probe(Optional.empty(), parent + " is not a cgroup v2 directory");
      }
      Path child = parent.resolve("capability-probe-" + UUID.randomUUID());
      try {
        Files.createDirectory(child);
      } catch (IOException e) {
        return new Probe(
            Optional.empty(),
            "cgroup v2 at " + parent + " is not writable here: " + e.getMessage());
      }
      boolean killable;
      try {
        killable = Files.isRegularFile(child.resolve("cgroup.kill"));
      } finally {
        Files.delete(child);
      }
      if (!killable) {
        return new Probe(
            Optional.empty(),
            "cgroup v2 at " + parent + " has no cgroup.kill (Linux 5.14 or later is needed)");
      }
      Set<String> controllers = enable(parent, limits);
      Map<String, Path> legacy = LegacyCgroups.parents(wanted(limits), controllers);
      removeDeadRuns(parent, legacy.values());
      List<String> described = new ArrayList<>(controllers);
      legacy.forEach((controller, v1) -> described.add(controller + " (v1 at " + v1 + ")"));
      return new Probe(
          Optional.of(new CgroupParent(parent, controllers, legacy)),
          "cgroup v2 at "
              + parent
              + ", a cgroup per run with cgroup.kill; controllers for runs: "
              + (described.isEmpty() ? "none" : String.join(" ", described)));
    } catch (IOException | RuntimeException e) {
      return new Probe(Optional.empty(), "probing cgroup v2 failed: " + e.getMessage());
    }
  }

  /**
   * Removes the run cgroups a dead JVM left under {@code parent} and {@code legacyParents}: a JVM
   * killed mid-run (SIGKILL, the OOM killer) never closes its run's cgroups. Whatever is still in
   * one is killed first ({@code cgroup.kill}); a cgroup that cannot be removed yet is left for the
   * next backend to try. A live JVM's runs are never touched ({@link JvmStamp}).
   */
  static void removeDeadRuns(Path parent, Collection<Path> legacyParents) {
    List<Path> parents = new ArrayList<>();
    parents.add(parent);
    parents.addAll(legacyParents);
    for (Path directory : parents) {
      try (DirectoryStream<Path> runs = Files.newDirectoryStream(directory, RUN_PREFIX + "*")) {
        for (Path run : runs) {
          if (JvmStamp.ownerAlive(run.getFileName().toString(), RUN_PREFIX)) {
            continue;
          }
          try {
            if (Files.isRegularFile(run.resolve("cgroup.kill"))) {
              Files.writeString(run.resolve("cgroup.kill"), "1");
            }
            Files.delete(run);
          } catch (IOException e) {
            // Its processes are still being ended, or it is not ours to remove: the next backend tries again.
          }
        }
      } catch (IOException e) {
        // An unreadable parent has no leftovers this backend could remove.
      }
    }
  }

  /** A fresh cgroup for one run with the limits applied, before any process joins it. */
  RunCgroup createRun(ResourceLimits limits) {
    Path run = directory.resolve(JvmStamp.name(RUN_PREFIX));
    try {
      Files.createDirectory(run);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the run cgroup " + run, e);
    }
    RunCgroup cgroup = new RunCgroup(run);
    try {
      if (limits.memoryBytes().isPresent() && controllers.contains(MEMORY)) {
        cgroup.write("memory.max", Long.toString(limits.memoryBytes().getAsLong()));
        if (Files.exists(run.resolve("memory.swap.max"))) {
          // Otherwise swap would extend the limit.
          cgroup.write("memory.swap.max", "0");
        }
      }
      if (limits.processes().isPresent() && controllers.contains(PIDS)) {
        cgroup.write("pids.max", Long.toString(limits.processes().getAsLong()));
      }
      if (limits.milliCpus().isPresent() && controllers.contains(CPU)) {
        cgroup.write("cpu.max", limits.cpuQuotaMicros() + " " + ResourceLimits.CPU_PERIOD_MICROS);
      }
      String name = run.getFileName().toString();
      if (limits.memoryBytes().isPresent() && legacyParents.containsKey(MEMORY)) {
        String bytes = Long.toString(limits.memoryBytes().getAsLong());
        Path memory = cgroup.addLegacy(legacyParents.get(MEMORY).resolve(name));
        cgroup.write(memory, "memory.limit_in_bytes", bytes);
        if (Files.exists(memory.resolve("memory.memsw.limit_in_bytes"))) {
          // Otherwise swap would extend the limit.
          cgroup.write(memory, "memory.memsw.limit_in_bytes", bytes);
        }
      }
      if (limits.processes().isPresent() && legacyParents.containsKey(PIDS)) {
        Path pids = cgroup.addLegacy(legacyParents.get(PIDS).resolve(name));
        cgroup.write(pids, "pids.max", Long.toString(limits.processes().getAsLong()));
      }
      if (limits.milliCpus().isPresent() && legacyParents.containsKey(CPU)) {
        Path cpu = cgroup.addLegacy(legacyParents.get(CPU).resolve(name));
        cgroup.write(cpu, "cpu.cfs_period_us", Long.toString(ResourceLimits.CPU_PERIOD_MICROS));
        cgroup.write(cpu, "cpu.cfs_quota_us", Long.toString(limits.cpuQuotaMicros()));
      }
    } catch (RuntimeException e) {
      cgroup.close();
      throw e;
    }
    return cgroup;
  }

  private static List<String> wanted(ResourceLimits limits) {
    List<String> wanted = new ArrayList<>();
    if (limits.memoryBytes().isPresent()) {
      wanted.add(MEMORY);
    }
    if (limits.processes().isPresent()) {
      wanted.add(PIDS);
    }
    if (limits.milliCpus().isPresent()) {
      wanted.add(CPU);
    }
    return wanted;
  }

  private static Set<String> enable(Path parent, ResourceLimits limits) throws IOException {
    Set<String> enabled = subtreeControl(parent);
    for (String controller : wanted(limits)) {
      if (!enabled.contains(controller)) {
        try {
          Files.writeString(parent.resolve("cgroup.subtree_control"), "+" + controller);
        } catch (IOException e) {
          // Not available here, or the parent holds processes itself; reported by the caller.
        }
      }
    }
    return subtreeControl(parent);
  }

  private static Set<String> subtreeControl(Path parent) throws IOException {
    String line =
        Files.readString(parent.resolve("cgroup.subtree_control"), StandardCharsets.US_ASCII);
    Set<String> controllers = new LinkedHashSet<>();
    for (String name : line.trim().split("\\s+")) {
      if (!name.isEmpty()) {
        controllers.add(name);
      }
    }
    return controllers;
  }

  /** This JVM's own cgroup v2 directory, from its mount table and {@code /proc/self/cgroup}. */
  static Optional<Path> ownCgroupDirectory() throws IOException {
    String own = null;
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8)) {
      if (line.startsWith("0::")) {
        own = line.substring(3);
      }
    }
    return mountedDirectory(own, source -> source[0].equals("cgroup2"));
  }

  /**
   * Where the cgroup path {@code own} (as {@code /proc/PID/cgroup} gives it) lies in this JVM's
   * mount namespace: under the first mount whose source fields (those after {@code " - "} in
   * {@code /proc/self/mountinfo}: type, source, options) {@code mount} accepts and whose root
   * contains it. Empty when {@code own} is absent or relative, or no such mount is found.
   */
  static Optional<Path> mountedDirectory(String own, Predicate<String[]> mount) throws IOException {
    if (own == null || !own.startsWith("/")) {
      return Optional.empty();
    }
    for (String line :
        Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
      int separator = line.indexOf(" - ");
      if (separator < 0 || !mount.test(line.substring(separator + 3).split(" "))) {
        continue;
      }
      String[] fields = line.substring(0, separator).split(" ");
      if (fields.length < 5) {
        continue;
      }
      String mountRoot = unescape(fields[3]);
      Path mountPoint = Path.of(unescape(fields[4]));
      if (!own.startsWith(mountRoot)) {
        continue;
      }
      String relative = own.substring(mountRoot.length());
      while (relative.startsWith("/")) {
        relative = relative.substring(1);
      }
      return Optional.of(relative.isEmpty() ? mountPoint : mountPoint.resolve(relative));
    }
    return Optional.empty();
  }

  /** Undoes mountinfo's octal escapes ({@code \040} for a space). */
  static String unescape(String field) {
    StringBuilder out = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && isOctal(field, i + 1) && isOctal(field, i + 2) && isOctal(field, i + 3)) {
        out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean isOctal(String s, int i) {
    return i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '7';
  }
}
