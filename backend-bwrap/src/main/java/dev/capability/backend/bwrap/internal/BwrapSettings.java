package dev.capability.backend.bwrap.internal;

import dev.capability.backend.support.SettingValues;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code bwrap.*} settings of a {@link BackendConfig}, validated. An unknown {@code bwrap.*}
 * key is an error rather than ignored, so that a misspelt limit is never silently dropped.
 *
 * @param bwrapPath {@code bwrap.path}: the bwrap binary; empty to search the system directories
 * @param uid {@code bwrap.uid}: the uid sandboxes run as when the JVM runs as root
 * @param gid {@code bwrap.gid}: the gid sandboxes run as when the JVM runs as root
 * @param tmpSizeBytes {@code bwrap.tmp-size}: size of the private {@code /tmp}
 * @param shmSizeBytes {@code bwrap.shm-size}: size of the private {@code /dev/shm}
 * @param etcEntries {@code bwrap.etc}: names under {@code /etc} shown read-only; a trailing {@code
 *     *} matches a prefix
 * @param readOnlyPaths {@code bwrap.read-only-paths}: further host directories shown read-only
 * @param hostname {@code bwrap.hostname}: the sandbox's host name
 * @param cgroup {@code bwrap.cgroup}: {@code auto}, {@code none} or a cgroup v2 directory
 * @param workDirectory {@code bwrap.work-dir}: where the backend keeps its private files
 * @param limits the {@code bwrap.limit.*} settings ({@code bwrap.limit.cpus} in thousandths)
 */
record BwrapSettings(
    Optional<Path> bwrapPath,
    int uid,
    int gid,
    long tmpSizeBytes,
    long shmSizeBytes,
    List<String> etcEntries,
    List<Path> readOnlyPaths,
    String hostname,
    CgroupChoice cgroup,
    Path workDirectory,
    ResourceLimits limits) {
  private static final SettingValues VALUES = new SettingValues("bwrap");

  static final String PREFIX = "bwrap.";
  static final String PATH = "bwrap.path";
  static final String UID = "bwrap.uid";
  static final String GID = "bwrap.gid";
  static final String TMP_SIZE = "bwrap.tmp-size";
  static final String SHM_SIZE = "bwrap.shm-size";
  static final String ETC = "bwrap.etc";
  static final String READ_ONLY_PATHS = "bwrap.read-only-paths";
  static final String HOSTNAME = "bwrap.hostname";
  static final String CGROUP = "bwrap.cgroup";
  static final String WORK_DIR = "bwrap.work-dir";
  static final String LIMIT_MEMORY = "bwrap.limit.memory";
  static final String LIMIT_PIDS = "bwrap.limit.pids";
  static final String LIMIT_CPUS = "bwrap.limit.cpus";
  static final String LIMIT_CPU_SECONDS = "bwrap.limit.cpu-seconds";
  static final String LIMIT_FILE_SIZE = "bwrap.limit.file-size";
  static final String LIMIT_OPEN_FILES = "bwrap.limit.open-files";
  static final String LIMIT_ADDRESS_SPACE = "bwrap.limit.address-space";

  private static final Set<String> KEYS =
      Set.of(
          PATH,
          UID,
          GID,
          TMP_SIZE,
          SHM_SIZE,
          ETC,
          READ_ONLY_PATHS,
          HOSTNAME,
          CGROUP,
          WORK_DIR,
          LIMIT_MEMORY,
          LIMIT_PIDS,
          LIMIT_CPUS,
          LIMIT_CPU_SECONDS,
          LIMIT_FILE_SIZE,
          LIMIT_OPEN_FILES,
          LIMIT_ADDRESS_SPACE);

  /** What programs commonly need from {@code /etc}; absent entries are skipped. */
  static final List<String> DEFAULT_ETC =
      List.of(
          "hosts",
          "host.conf",
          "resolv.conf",
          "nsswitch.conf",
          "services",
          "protocols",
          "localtime",
          "timezone",
          "ld.so.cache",
          "ld.so.conf",
          "ld.so.conf.d",
          "alternatives",
          "ssl",
          "ca-certificates",
          "ca-certificates.conf",
          "pki",
          "crypto-policies",
          "java-*");

  static final int NOBODY = 65534;
  static final long DEFAULT_TMP_SIZE = 64L << 20;
  static final long DEFAULT_SHM_SIZE = 16L << 20;

  /**
   * {@code pids.max} of each run when {@code bwrap.limit.pids} is not set and the host allows a
   * pids cgroup: room for parallel builds and threaded programs (threads count), far below what
   * takes a host down.
   */
  static final long DEFAULT_PIDS = 1024;

  /**
   * {@code memory.max} of each run when {@code bwrap.limit.memory} is not set and the host allows a
   * memory cgroup, as a fraction of the host's memory: a run may use half of it. Besides bounding
   * allocations, this bounds what a run's private {@code /tmp} and {@code /dev/shm} can hold in
   * entries (each inode is kernel memory charged to the run), which bwrap cannot bound in the
   * tmpfs itself.
   */
  static final int DEFAULT_MEMORY_DIVISOR = 2;

  private static final Pattern MEM_TOTAL = Pattern.compile("MemTotal:\\s+(\\d+) kB");

  private static final Pattern HOSTNAME_SYNTAX =
      Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

  /** How run cgroups are chosen. */
  sealed interface CgroupChoice {
    /** Under this JVM's own cgroup v2 directory, when it is writable. */
    record Auto() implements CgroupChoice {}

    /** Never. */
    record Disabled() implements CgroupChoice {}

    /** Under this cgroup v2 directory, which must be usable. */
    record Under(Path directory) implements CgroupChoice {
      public Under {
        Objects.requireNonNull(directory, "directory");
      }
    }
  }

  BwrapSettings {
    Objects.requireNonNull(bwrapPath, "bwrapPath");
    etcEntries = List.copyOf(etcEntries);
    readOnlyPaths = List.copyOf(readOnlyPaths);
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(cgroup, "cgroup");
    Objects.requireNonNull(workDirectory, "workDirectory");
    Objects.requireNonNull(limits, "limits");
    if (uid <= 0 || gid <= 0) {
      throw new IllegalArgumentException("the sandbox uid and gid must be positive (never root)");
    }
  }

  /**
   * The limits each run's cgroup gets: the configured ones, {@link #DEFAULT_PIDS} processes when
   * none is configured, and half the host's memory ({@link #DEFAULT_MEMORY_DIVISOR}) when no memory
   * limit is configured and the host's size can be read. Unlike a configured limit, a default is
   * applied only where the host allows it; the backend then advertises {@code PID_LIMIT} and
   * {@code MEMORY_LIMIT}.
   */
  ResourceLimits runLimits() {
    OptionalLong processes =
        limits.processes().isPresent() ? limits.processes() : OptionalLong.of(DEFAULT_PIDS);
    OptionalLong memory =
        limits.memoryBytes().isPresent() ? limits.memoryBytes() : defaultMemoryBytes();
    return limits.withCgroupLimits(memory, processes, limits.milliCpus());
  }

  /** Half of {@code MemTotal} in {@code /proc/meminfo}, or empty where it cannot be read. */
  static OptionalLong defaultMemoryBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        Matcher total = MEM_TOTAL.matcher(line);
        if (total.matches()) {
          return OptionalLong.of(Long.parseLong(total.group(1)) * 1024 / DEFAULT_MEMORY_DIVISOR);
        }
      }
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty();
    }
    return OptionalLong.empty();
  }

  /** Every default: nobody/nogroup, 64 MiB /tmp, 16 MiB /dev/shm, automatic cgroups, no limits. */
  static BwrapSettings defaults() {
    return from(BackendConfig.defaults());
  }

  /**
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} naming the first invalid
   *     setting
   */
  static BwrapSettings from(BackendConfig config) {
    Map<String, String> settings = config.settings();
    for (String key : settings.keySet()) {
      if (key.startsWith(PREFIX) && !KEYS.contains(key)) {
        throw invalid(
            key, "unknown setting; known settings are " + KEYS.stream().sorted().toList());
      }
    }
    return new BwrapSettings(
        config.get(PATH).map(v -> VALUES.absolutePath(PATH, v)),
        config.get(UID).map(v -> VALUES.id(UID, v)).orElse(NOBODY),
        config.get(GID).map(v -> VALUES.id(GID, v)).orElse(NOBODY),
        config.get(TMP_SIZE).map(v -> VALUES.bytes(TMP_SIZE, v)).orElse(DEFAULT_TMP_SIZE),
        config.get(SHM_SIZE).map(v -> VALUES.bytes(SHM_SIZE, v)).orElse(DEFAULT_SHM_SIZE),
        config.get(ETC).map(v -> VALUES.etcNames(ETC, v)).orElse(DEFAULT_ETC),
        config.get(READ_ONLY_PATHS).map(v -> VALUES.absolutePaths(READ_ONLY_PATHS, v)).orElse(List.of()),
        config.get(HOSTNAME).map(BwrapSettings::hostname).orElse("sandbox"),
        config.get(CGROUP).map(BwrapSettings::cgroupChoice).orElse(new CgroupChoice.Auto()),
        config
            .get(WORK_DIR)
            .map(v -> VALUES.absolutePath(WORK_DIR, v))
            .orElseGet(() -> Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath()),
        new ResourceLimits(
            optionalBytes(config, LIMIT_MEMORY),
            optionalCount(config, LIMIT_PIDS),
            optionalCount(config, LIMIT_CPU_SECONDS),
            optionalBytes(config, LIMIT_FILE_SIZE),
            optionalCount(config, LIMIT_OPEN_FILES),
            optionalBytes(config, LIMIT_ADDRESS_SPACE),
            config
                .get(LIMIT_CPUS)
                .map(v -> OptionalLong.of(milliCpus(v)))
                .orElse(OptionalLong.empty())));
  }
  private static OptionalLong optionalBytes(BackendConfig config, String key) {
    return config.get(key).map(v -> OptionalLong.of(VALUES.bytes(key, v))).orElse(OptionalLong.empty());
  }

  private static OptionalLong optionalCount(BackendConfig config, String key) {
    return config
        .get(key)
        .map(v -> OptionalLong.of(VALUES.count(key, v)))
        .orElse(OptionalLong.empty());
  }

  private static final Pattern CPUS_SYNTAX = Pattern.compile("[0-9]{1,4}(\\.[0-9]{1,3})?");

  /** {@code bwrap.limit.cpus}: CPUs as a decimal with up to three places, at least 0.01. */
  private static long milliCpus(String value) {
    String cpus = value.strip();
    if (!CPUS_SYNTAX.matcher(cpus).matches()) {
      throw invalid(LIMIT_CPUS, "'" + value + "' is not a number of CPUs such as 0.5 or 2");
    }
    long milli = new BigDecimal(cpus).movePointRight(3).longValueExact();
    if (milli < 10) {
      // The kernel's smallest quota is 1 ms per 100 ms period.
      throw invalid(LIMIT_CPUS, "must be at least 0.01 CPUs, was " + cpus);
    }
    return milli;
  }

  private static String hostname(String value) {
    if (!HOSTNAME_SYNTAX.matcher(value).matches()) {
      throw invalid(HOSTNAME, "'" + value + "' is not a valid host name label");
    }
    return value;
  }

  private static CgroupChoice cgroupChoice(String value) {
    return switch (value.strip()) {
      case "auto" -> new CgroupChoice.Auto();
      case "none" -> new CgroupChoice.Disabled();
      default -> new CgroupChoice.Under(VALUES.absolutePath(CGROUP, value));
    };
  }

  private static BackendUnavailableException invalid(String key, String why) {
    return VALUES.invalid(key, why);
  }
}
