package dev.capability.backend.bwrap.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Optional per-sandbox resource limits. Memory and process count are limits of the run's cgroup
 * (all of its processes together); the others are {@code setrlimit} limits that every process of
 * the sandbox inherits from its first one. None of them is a per-uid limit shared with other
 * processes: {@code RLIMIT_NPROC} is deliberately never used.
 *
 * @param memoryBytes cgroup {@code memory.max}
 * @param processes cgroup {@code pids.max}
 * @param cpuSeconds {@code RLIMIT_CPU} of each process
 * @param fileSizeBytes {@code RLIMIT_FSIZE}, the largest file a process may write
 * @param openFiles {@code RLIMIT_NOFILE}
 * @param addressSpaceBytes {@code RLIMIT_AS} of each process
 * @param milliCpus cgroup {@code cpu.max}, in thousandths of a CPU
 */
record ResourceLimits(
    OptionalLong memoryBytes,
    OptionalLong processes,
    OptionalLong cpuSeconds,
    OptionalLong fileSizeBytes,
    OptionalLong openFiles,
    OptionalLong addressSpaceBytes,
    OptionalLong milliCpus) {

  /** The cgroup CPU period every quota is a share of: 100 ms, the kernel's default. */
  static final long CPU_PERIOD_MICROS = 100_000;

  static final ResourceLimits NONE =
      new ResourceLimits(
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty());

  ResourceLimits {
    requirePositive(memoryBytes, "memoryBytes");
    requirePositive(processes, "processes");
    requirePositive(cpuSeconds, "cpuSeconds");
    requirePositive(fileSizeBytes, "fileSizeBytes");
    requirePositive(openFiles, "openFiles");
    requirePositive(addressSpaceBytes, "addressSpaceBytes");
    requirePositive(milliCpus, "milliCpus");
  }

  /** These limits with the given limits of each run's cgroup. */
  ResourceLimits withCgroupLimits(
      OptionalLong memoryBytes, OptionalLong processes, OptionalLong milliCpus) {
    return new ResourceLimits(
        memoryBytes, processes, cpuSeconds, fileSizeBytes, openFiles, addressSpaceBytes, milliCpus);
  }

  /** The CPU quota per {@link #CPU_PERIOD_MICROS}, in microseconds. */
  long cpuQuotaMicros() {
    return milliCpus.orElseThrow() * CPU_PERIOD_MICROS / 1000;
  }

  /** These limits with {@code RLIMIT_FSIZE} at most {@code maxFileBytes}. */
  ResourceLimits withFileSizeAtMost(long maxFileBytes) {
    long fileSize = Math.min(fileSizeBytes.orElse(Long.MAX_VALUE), maxFileBytes);
    return new ResourceLimits(
        memoryBytes,
        processes,
        cpuSeconds,
        OptionalLong.of(fileSize),
        openFiles,
        addressSpaceBytes,
        milliCpus);
  }

  boolean needsCgroup() {
    return memoryBytes.isPresent() || processes.isPresent() || milliCpus.isPresent();
  }

  boolean needsRlimits() {
    return !prlimitOptions().isEmpty();
  }

  /** util-linux {@code prlimit} options setting soft and hard limit alike. */
  List<String> prlimitOptions() {
    List<String> options = new ArrayList<>();
    cpuSeconds.ifPresent(v -> options.add("--cpu=" + v + ":" + v));
    fileSizeBytes.ifPresent(v -> options.add("--fsize=" + v + ":" + v));
    openFiles.ifPresent(v -> options.add("--nofile=" + v + ":" + v));
    addressSpaceBytes.ifPresent(v -> options.add("--as=" + v + ":" + v));
    return List.copyOf(options);
  }

  private static void requirePositive(OptionalLong value, String name) {
    if (value == null) {
      throw new NullPointerException(name);
    }
    if (value.isPresent() && value.getAsLong() <= 0) {
      throw new IllegalArgumentException(name + " must be positive, was " + value.getAsLong());
    }
  }
}
