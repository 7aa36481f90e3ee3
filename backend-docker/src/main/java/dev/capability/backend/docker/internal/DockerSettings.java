package dev.capability.backend.docker.internal;

import dev.capability.backend.support.SettingValues;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The {@code docker.*} settings of a {@link BackendConfig}, validated. An unknown {@code docker.*}
 * key is an error rather than ignored, so that a misspelt limit is never silently dropped.
 *
 * @param image {@code docker.image}, else {@value #IMAGE_VARIABLE} from the environment: the image
 *     every container starts from, a local tag or, better, a reference by digest
 * @param allowPull {@code docker.allow-pull}: whether a missing image may be pulled; never by
 *     default
 * @param uid {@code docker.uid}: the uid commands run as; never 0
 * @param gid {@code docker.gid}: the gid commands run as; never 0
 * @param memoryBytes {@code docker.limit.memory}: memory (and memory plus swap) per container
 * @param pids {@code docker.limit.pids}: processes per container
 * @param nanoCpus {@code docker.limit.cpus}: CPUs per container, in billionths
 * @param tmpSizeBytes {@code docker.tmp-size}: size of the private {@code /tmp}
 * @param shmSizeBytes {@code docker.shm-size}: size of {@code /dev/shm}
 * @param logDriver {@code docker.log-driver}: {@code none}, or {@code json-file} or {@code local}
 *     with {@code docker.log-max-size}
 * @param logMaxSize {@code docker.log-max-size}: the bound on daemon-side log files when a log
 *     driver other than {@code none} is chosen
 * @param systemPaths {@code docker.system-paths}: host directories bound read-only at the same
 *     path, so pinned host executables and their libraries run as they do on the host; a trust
 *     decision (see {@code docs/backends/docker.md})
 * @param etcEntries {@code docker.etc}: names under {@code /etc} bound read-only; a trailing {@code
 *     *} matches a prefix
 * @param launcher {@code docker.launcher}: the path, inside the image, of the entrypoint ({@code
 *     ck-launch}) that reads the spec's environment from stdin and starts tini with exactly it, so
 *     that no value is in the container's configuration and none of the variables the daemon adds
 *     reaches the command
 * @param init {@code docker.init}: the path, inside the image, of tini, which runs as PID 1 with
 *     exactly the spec's environment and reports a death by signal N as 128 + N
 * @param network {@code docker.network}: the network of a spec that allows the network, {@code
 *     bridge} (the default: the daemon's NAT, not the host's own interfaces) or {@code host}
 * @param workDirectory {@code docker.work-dir}: where per-run directories (the executable copy) are
 *     made; must be visible to the daemon at the same path
 */
public record DockerSettings(
    String image,
    boolean allowPull,
    int uid,
    int gid,
    long memoryBytes,
    long pids,
    long nanoCpus,
    long tmpSizeBytes,
    long shmSizeBytes,
    String logDriver,
    String logMaxSize,
    List<Path> systemPaths,
    List<String> etcEntries,
    String launcher,
    String init,
    String network,
    Path workDirectory) {
  private static final SettingValues VALUES = new SettingValues("docker");

  static final String PREFIX = "docker.";
  static final String IMAGE = "docker.image";
  /**
   * The image through the environment, for the CLI, which passes the backends only their default
   * settings: the operator's choice (the CLI's environment, never a command's); the setting wins.
   */
  static final String IMAGE_VARIABLE = "CAPABILITY_DOCKER_IMAGE";
  static final String ALLOW_PULL = "docker.allow-pull";
  static final String UID = "docker.uid";
  static final String GID = "docker.gid";
  static final String LIMIT_MEMORY = "docker.limit.memory";
  static final String LIMIT_PIDS = "docker.limit.pids";
  static final String LIMIT_CPUS = "docker.limit.cpus";
  static final String TMP_SIZE = "docker.tmp-size";
  static final String SHM_SIZE = "docker.shm-size";
  static final String LOG_DRIVER = "docker.log-driver";
  static final String LOG_MAX_SIZE = "docker.log-max-size";
  static final String SYSTEM_PATHS = "docker.system-paths";
  static final String ETC = "docker.etc";
  static final String LAUNCHER = "docker.launcher";
  static final String WORK_DIR = "docker.work-dir";
  static final String INIT = "docker.init";
  static final String NETWORK = "docker.network";

  private static final Set<String> KEYS =
      Set.of(
          DockerEndpoint.HOST,
          DockerEndpoint.TLS_VERIFY,
          DockerEndpoint.CERT_PATH,
          DockerEndpoint.INSECURE_PLAIN_TCP,
          IMAGE,
          ALLOW_PULL,
          UID,
          GID,
          LIMIT_MEMORY,
          LIMIT_PIDS,
          LIMIT_CPUS,
          TMP_SIZE,
          SHM_SIZE,
          LOG_DRIVER,
          LOG_MAX_SIZE,
          SYSTEM_PATHS,
          ETC,
          LAUNCHER,
          INIT,
          NETWORK,
          WORK_DIR);

  /** The directories bwrap's sandbox layout shows read-only, for the same reason. */
  public static final List<Path> DEFAULT_SYSTEM_PATHS =
      List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32").stream()
          .map(Path::of)
          .toList();

  /** What programs commonly need from {@code /etc}; absent and symlinked entries are skipped. */
  public static final List<String> DEFAULT_ETC =
      List.of(
          "hosts",
          "host.conf",
          "resolv.conf",
          "nsswitch.conf",
          "services",
          "protocols",
          "timezone",
          "ld.so.cache",
          "ld.so.conf",
          "ld.so.conf.d",
          "alternatives",
          "ssl",
          "ca-certificates",
          "pki",
          "crypto-policies",
          "java-*");

  /** Where {@link dev.capability.backend.docker.LocalRuntimeImage} puts the entrypoint launcher. */
  public static final String DEFAULT_LAUNCHER = RuntimeImageBuilder.LAUNCHER;

  /** Where {@link dev.capability.backend.docker.LocalRuntimeImage} puts tini. */
  public static final String DEFAULT_INIT = RuntimeImageBuilder.TINI;

  static final int NOBODY = 65534;
  static final long DEFAULT_MEMORY = 1L << 30;
  static final long DEFAULT_PIDS = 512;
  static final long DEFAULT_NANO_CPUS = 1_000_000_000L;
  static final long DEFAULT_TMP_SIZE = 64L << 20;
  static final long DEFAULT_SHM_SIZE = 16L << 20;

  private static final Pattern IMAGE_REFERENCE =
      Pattern.compile("[a-z0-9][a-z0-9._/:-]*(@sha256:[0-9a-f]{64})?|sha256:[0-9a-f]{64}");
  private static final Pattern LOG_SIZE = Pattern.compile("[1-9][0-9]{0,5}[kmg]");

  public DockerSettings {
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(logDriver, "logDriver");
    Objects.requireNonNull(logMaxSize, "logMaxSize");
    systemPaths = List.copyOf(systemPaths);
    etcEntries = List.copyOf(etcEntries);
    Objects.requireNonNull(launcher, "launcher");
    Objects.requireNonNull(init, "init");
    boolean bounded = logDriver.equals("json-file") || logDriver.equals("local");
    if (!logDriver.equals("none") && !(bounded && !logMaxSize.isEmpty())) {
      throw new IllegalArgumentException(
          "log driver must be none, or json-file or local with a max size; was " + logDriver);
    }
    if (!network.equals("bridge") && !network.equals("host")) {
      throw new IllegalArgumentException("network must be bridge or host, was " + network);
    }
    Objects.requireNonNull(workDirectory, "workDirectory");
    if (uid <= 0 || gid <= 0) {
      throw new IllegalArgumentException("the container uid and gid must be positive (never root)");
    }
    if (memoryBytes <= 0 || pids <= 0 || nanoCpus <= 0 || tmpSizeBytes <= 0 || shmSizeBytes <= 0) {
      throw new IllegalArgumentException("limits and sizes must be positive");
    }
  }

  /** The default image tag for this JVM's feature release, for example {@code capability/runtime:17}. */
  public static String defaultImage() {
    return "capability/runtime:" + Runtime.version().feature();
  }

  /** Every default; see {@link #from(BackendConfig)}. */
  public static DockerSettings defaults() {
    return from(BackendConfig.defaults());
  }

  /**
   * The settings alone, without the environment's {@value #IMAGE_VARIABLE}.
   *
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} naming the first invalid
   *     setting
   */
  public static DockerSettings from(BackendConfig config) {
    return from(config, Map.of());
  }

  /**
   * The settings, with the image named by {@value #IMAGE_VARIABLE} in {@code environment} when
   * {@code docker.image} is not set.
   *
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} naming the first invalid
   *     setting, or the variable when its value is not an image reference
   */
  public static DockerSettings from(BackendConfig config, Map<String, String> environment) {
    Map<String, String> settings = config.settings();
    for (String key : settings.keySet()) {
      if (key.startsWith(PREFIX) && !KEYS.contains(key)) {
        throw invalid(
            key, "unknown setting; known settings are " + KEYS.stream().sorted().toList());
      }
    }
    String logDriver = config.get(LOG_DRIVER).map(String::strip).orElse("none");
    String logMaxSize =
        config.get(LOG_MAX_SIZE).map(v -> v.strip().toLowerCase(Locale.ROOT)).orElse("");
    if (!logMaxSize.isEmpty() && !LOG_SIZE.matcher(logMaxSize).matches()) {
      throw invalid(LOG_MAX_SIZE, "'" + logMaxSize + "' is not a size such as 1m");
    }
    switch (logDriver) {
      case "none" -> {}
      case "json-file", "local" -> {
        if (logMaxSize.isEmpty()) {
          throw invalid(
              LOG_DRIVER,
              logDriver
                  + " keeps every byte in daemon-side files unless "
                  + LOG_MAX_SIZE
                  + " bounds them; set it");
        }
      }
      default -> throw invalid(LOG_DRIVER, "'" + logDriver + "' is not none, json-file or local");
    }
    Builder b = builder();
    switch (imageSource(config, environment)) {
      case IMAGE -> {
        String v = config.get(IMAGE).orElseThrow();
        b.image(image(v, () -> invalid(IMAGE, "'" + v + "' is not an image reference")));
      }
      case IMAGE_VARIABLE -> b.image(imageVariable(environment.get(IMAGE_VARIABLE)));
      default -> { } // the runtime image
    }
    config.get(ALLOW_PULL).map(v -> bool(ALLOW_PULL, v)).ifPresent(b::allowPull);
    config.get(UID).map(v -> VALUES.id(UID, v)).ifPresent(b::uid);
    config.get(GID).map(v -> VALUES.id(GID, v)).ifPresent(b::gid);
    config.get(LIMIT_MEMORY).map(v -> VALUES.bytes(LIMIT_MEMORY, v)).ifPresent(b::memoryBytes);
    config.get(LIMIT_PIDS).map(v -> VALUES.count(LIMIT_PIDS, v)).ifPresent(b::pids);
    config.get(LIMIT_CPUS).map(DockerSettings::nanoCpus).ifPresent(b::nanoCpus);
    config.get(TMP_SIZE).map(v -> VALUES.bytes(TMP_SIZE, v)).ifPresent(b::tmpSizeBytes);
    config.get(SHM_SIZE).map(v -> VALUES.bytes(SHM_SIZE, v)).ifPresent(b::shmSizeBytes);
    b.logDriver(logDriver, logMaxSize);
    config.get(SYSTEM_PATHS).map(v -> VALUES.absolutePaths(SYSTEM_PATHS, v)).ifPresent(b::systemPaths);
    config.get(ETC).map(v -> VALUES.etcNames(ETC, v)).ifPresent(b::etcEntries);
    config.get(LAUNCHER).map(v -> VALUES.absolutePath(LAUNCHER, v).toString()).ifPresent(b::launcher);
    config.get(INIT).map(v -> VALUES.absolutePath(INIT, v).toString()).ifPresent(b::init);
    config.get(NETWORK).map(DockerSettings::network).ifPresent(b::network);
    config.get(WORK_DIR).map(v -> VALUES.absolutePath(WORK_DIR, v)).ifPresent(b::workDirectory);
    return b.build();
  }

  /** A builder starting from every default. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds {@link DockerSettings} in code, starting from the defaults; {@link #build()} validates
   * like the record's constructor.
   */
  public static final class Builder {
    private String image = defaultImage();
    private boolean allowPull;
    private int uid = NOBODY;
    private int gid = NOBODY;
    private long memoryBytes = DEFAULT_MEMORY;
    private long pids = DEFAULT_PIDS;
    private long nanoCpus = DEFAULT_NANO_CPUS;
    private long tmpSizeBytes = DEFAULT_TMP_SIZE;
    private long shmSizeBytes = DEFAULT_SHM_SIZE;
    private String logDriver = "none";
    private String logMaxSize = "";
    private List<Path> systemPaths = DEFAULT_SYSTEM_PATHS;
    private List<String> etcEntries = DEFAULT_ETC;
    private String launcher = DEFAULT_LAUNCHER;
    private String init = DEFAULT_INIT;
    private String network = "bridge";
    private Path workDirectory = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();

    private Builder() {}

    public Builder image(String image) {
      this.image = Objects.requireNonNull(image, "image");
      return this;
    }

    public Builder allowPull(boolean allowPull) {
      this.allowPull = allowPull;
      return this;
    }

    public Builder uid(int uid) {
      this.uid = uid;
      return this;
    }

    public Builder gid(int gid) {
      this.gid = gid;
      return this;
    }

    public Builder memoryBytes(long memoryBytes) {
      this.memoryBytes = memoryBytes;
      return this;
    }

    public Builder pids(long pids) {
      this.pids = pids;
      return this;
    }

    public Builder nanoCpus(long nanoCpus) {
      this.nanoCpus = nanoCpus;
      return this;
    }

    public Builder tmpSizeBytes(long tmpSizeBytes) {
      this.tmpSizeBytes = tmpSizeBytes;
      return this;
    }

    public Builder shmSizeBytes(long shmSizeBytes) {
      this.shmSizeBytes = shmSizeBytes;
      return this;
    }

    /** {@code none}, or {@code json-file} or {@code local} with a max size such as {@code 1m}. */
    public Builder logDriver(String logDriver, String logMaxSize) {
      this.logDriver = Objects.requireNonNull(logDriver, "logDriver");
      this.logMaxSize = Objects.requireNonNull(logMaxSize, "logMaxSize");
      return this;
    }

    public Builder systemPaths(List<Path> systemPaths) {
      this.systemPaths = List.copyOf(systemPaths);
      return this;
    }

    public Builder etcEntries(List<String> etcEntries) {
      this.etcEntries = List.copyOf(etcEntries);
      return this;
    }

    public Builder launcher(String launcher) {
      this.launcher = Objects.requireNonNull(launcher, "launcher");
      return this;
    }

    public Builder init(String init) {
      this.init = Objects.requireNonNull(init, "init");
      return this;
    }

    public Builder network(String network) {
      this.network = Objects.requireNonNull(network, "network");
      return this;
    }

    public Builder workDirectory(Path workDirectory) {
      this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
      return this;
    }

    public DockerSettings build() {
      return new DockerSettings(
          image,
          allowPull,
          uid,
          gid,
          memoryBytes,
          pids,
          nanoCpus,
          tmpSizeBytes,
          shmSizeBytes,
          logDriver,
          logMaxSize,
          systemPaths,
          etcEntries,
          launcher,
          init,
          network,
          workDirectory);
    }
  }
  private static long nanoCpus(String value) {
    try {
      BigDecimal cpus = new BigDecimal(value.strip());
      long nanos = cpus.movePointRight(9).longValueExact();
      if (nanos < 10_000_000L || cpus.compareTo(BigDecimal.valueOf(1024)) > 0) {
        throw invalid(LIMIT_CPUS, "'" + value + "' must be between 0.01 and 1024");
      }
      return nanos;
    } catch (NumberFormatException | ArithmeticException e) {
      throw invalid(LIMIT_CPUS, "'" + value + "' is not a number of CPUs such as 1.5");
    }
  }

  private static String network(String value) {
    String v = value.strip();
    if (!v.equals("bridge") && !v.equals("host")) {
      throw invalid(NETWORK, "'" + value + "' is not bridge or host");
    }
    return v;
  }

  private static boolean bool(String key, String value) {
    return switch (value.strip()) {
      case "true" -> true;
      case "false" -> false;
      default -> throw invalid(key, "'" + value + "' is not true or false");
    };
  }

  /**
   * Where the image of {@link #from(BackendConfig, Map)} comes from, which {@code from} follows
   * and diagnostics name: {@code docker.image}, else {@value #IMAGE_VARIABLE}, else {@code the
   * default}.
   */
  static String imageSource(BackendConfig config, Map<String, String> environment) {
    if (config.get(IMAGE).isPresent()) {
      return IMAGE;
    }
    return environment.containsKey(IMAGE_VARIABLE) ? IMAGE_VARIABLE : "the default";
  }

  private static String imageVariable(String value) {
    return image(
        value,
        () ->
            new BackendUnavailableException(
                BackendUnavailableException.UNAVAILABLE,
                "invalid "
                    + IMAGE_VARIABLE
                    + " in the environment (the docker backend's "
                    + IMAGE
                    + "): '"
                    + value
                    + "' is not an image reference"));
  }

  private static String image(String value, Supplier<BackendUnavailableException> invalid) {
    String v = value.strip();
    if (!IMAGE_REFERENCE.matcher(v).matches()) {
      throw invalid.get();
    }
    return v;
  }

  private static BackendUnavailableException invalid(String key, String why) {
    return VALUES.invalid(key, why);
  }
}
