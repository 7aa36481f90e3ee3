package dev.capability.kernel.api.backend;

import dev.capability.kernel.api.NetworkMode;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Everything a backend needs to launch one command. Built by the kernel after the command was
 * authorized; backends must enforce all of it or refuse to launch.
 */
public final class LaunchSpec {
  /** The default {@link #maxFileBytes()}: 1 GiB. */
  public static final long DEFAULT_MAX_FILE_BYTES = 1L << 30;

  /** The default {@link #maxWriteBytes()}: 4 GiB. */
  public static final long DEFAULT_MAX_WRITE_BYTES = 4L << 30;

  private static final List<Charset> PROCESS_CHARSETS = platformCharsets();

  private final PinnedExecutable executable;
  private final List<String> arguments;
  private final Map<String, String> environment;
  private final Path workingDirectory;
  private final byte @Nullable [] stdin;
  private final Duration timeout;
  private final Duration terminationGrace;
  private final long maxOutputBytes;
  private final long maxFileBytes;
  private final long maxWriteBytes;
  private final NetworkMode network;
  private final @Nullable Path egressSocket;
  private final @Nullable Path repository;
  private final List<Path> writableRoots;
  private final List<Path> protectedPaths;
  private final Set<IsolationCapability> requiredCapabilities;
  private final @Nullable ShippedWorkspace workspace;

  private LaunchSpec(Builder b) {
    this.executable = Objects.requireNonNull(b.executable, "executable");
    this.arguments = List.copyOf(b.arguments);
    this.environment = Map.copyOf(b.environment);
    this.workingDirectory = Objects.requireNonNull(b.workingDirectory, "workingDirectory");
    this.stdin = b.stdin == null ? null : b.stdin.clone();
    this.timeout = requirePositive(b.timeout, "timeout");
    this.terminationGrace = Objects.requireNonNull(b.terminationGrace, "terminationGrace");
    if (b.maxOutputBytes <= 0) {
      throw new IllegalArgumentException("maxOutputBytes must be positive, was " + b.maxOutputBytes);
    }
    this.maxOutputBytes = b.maxOutputBytes;
    if (b.maxFileBytes <= 0) {
      throw new IllegalArgumentException("maxFileBytes must be positive, was " + b.maxFileBytes);
    }
    this.maxFileBytes = b.maxFileBytes;
    if (b.maxWriteBytes <= 0) {
      throw new IllegalArgumentException("maxWriteBytes must be positive, was " + b.maxWriteBytes);
    }
    this.maxWriteBytes = b.maxWriteBytes;
    this.network = Objects.requireNonNull(b.network, "network");
    if ((network == NetworkMode.FILTERED) != (b.egressSocket != null)) {
      throw new IllegalArgumentException("an egress socket is given exactly when the network is FILTERED");
    }
    this.egressSocket = b.egressSocket;
    this.repository = b.repository;
    this.writableRoots = List.copyOf(b.writableRoots);
    this.protectedPaths = List.copyOf(b.protectedPaths);
    this.requiredCapabilities = Set.copyOf(b.requiredCapabilities);
    if (b.workspace != null && b.repository == null) {
      throw new IllegalArgumentException("a shipped workspace needs a repository");
    }
    this.workspace = b.workspace;
  }

  private static Duration requirePositive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + d);
    }
    return d;
  }

  /**
   * The charsets a string must encode in to reach a started process unchanged: the JVM's default
   * charset and, when it differs, the one named by {@code sun.jnu.encoding}, which the JDK uses
   * for argv, environment and file names (the last of the list). The JDK replaces what a charset
   * cannot encode with {@code '?'} instead of failing.
   */
  public static List<Charset> processCharsets() {
    return PROCESS_CHARSETS;
  }

  /**
   * Checks that every string of this spec reaches the command exactly as authorized: the
   * executable's path and exec path, each argument, each environment variable's name and value,
   * the working directory, the repository, the writable roots and the protected paths. A string
   * holding NUL (which no process can receive) or one that some {@link #processCharsets()} charset
   * cannot encode is refused, since the JDK would silently pass another string and so run a
   * command other than the one authorized; so is an environment variable name that is empty or
   * holds {@code '='}. Environment values are never quoted in the message: they may be secrets.
   *
   * @param launchName how the message names the command, for example its executable's path
   * @throws LaunchFailedException naming the first string that cannot be passed exactly
   */
  public void requireExactStrings(String launchName) {
    Objects.requireNonNull(launchName, "launchName");
    String execPath = executable.execPath();
    requireExact(launchName, "exec path", execPath);
    String path = executable.path().toString();
    if (!path.equals(execPath)) {
      requireExact(launchName, "executable path", path);
    }
    for (int i = 0; i < arguments.size(); i++) {
      requireExact(launchName, "argument " + (i + 1), arguments.get(i));
    }
    for (Map.Entry<String, String> variable : environment.entrySet()) {
      String key = variable.getKey();
      if (key.isEmpty() || key.indexOf('=') >= 0) {
        throw new LaunchFailedException(
            "cannot launch "
                + launchName
                + ": environment variable name '"
                + key
                + "' is empty or contains '='");
      }
      requireExact(launchName, "environment variable name '" + key + "'", key);
      requireExact(launchName, "value of environment variable " + key, variable.getValue());
    }
    requireExact(launchName, "working directory", workingDirectory.toString());
    if (repository != null) {
      requireExact(launchName, "repository " + repository, repository.toString());
    }
    for (Path root : writableRoots) {
      requireExact(launchName, "writable root " + root, root.toString());
    }
    for (Path protectedPath : protectedPaths) {
      requireExact(launchName, "protected path " + protectedPath, protectedPath.toString());
    }
  }

  private static void requireExact(String launchName, String what, String value) {
    if (value.indexOf('\0') >= 0) {
      throw new LaunchFailedException(
          "cannot launch "
              + launchName
              + ": "
              + what
              + " contains a NUL character, which no process can receive");
    }
    for (Charset charset : PROCESS_CHARSETS) {
      if (!charset.newEncoder().canEncode(value)) {
        throw new LaunchFailedException(
            "cannot launch "
                + launchName
                + ": "
                + what
                + " cannot be encoded exactly in the platform charset "
                + charset
                + "; run the JVM with a UTF-8 locale (for example LANG=C.UTF-8) so the command"
                + " receives exactly the authorized strings");
      }
    }
  }

  private static List<Charset> platformCharsets() {
    Set<Charset> charsets = new LinkedHashSet<>();
    charsets.add(Charset.defaultCharset());
    String jnu = System.getProperty("sun.jnu.encoding");
    if (jnu != null) {
      try {
        charsets.add(Charset.forName(jnu));
      } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
        // The JDK falls back to the default charset for an unusable name, already listed.
      }
    }
    return List.copyOf(charsets);
  }

  public static Builder builder(PinnedExecutable executable) {
    return new Builder(executable);
  }

  public Builder toBuilder() {
    Builder b = new Builder(executable);
    b.arguments = arguments;
    b.environment = new LinkedHashMap<>(environment);
    b.workingDirectory = workingDirectory;
    b.stdin = stdin;
    b.timeout = timeout;
    b.terminationGrace = terminationGrace;
    b.maxOutputBytes = maxOutputBytes;
    b.maxFileBytes = maxFileBytes;
    b.maxWriteBytes = maxWriteBytes;
    b.network = network;
    b.egressSocket = egressSocket;
    b.repository = repository;
    b.writableRoots = writableRoots;
    b.protectedPaths = protectedPaths;
    b.requiredCapabilities = EnumSet.noneOf(IsolationCapability.class);
    b.requiredCapabilities.addAll(requiredCapabilities);
    b.workspace = workspace;
    return b;
  }

  /** The pinned executable; a backend executes {@link PinnedExecutable#execPath()}. */
  public PinnedExecutable executable() {
    return executable;
  }

  /** The arguments after argv[0]. */
  public List<String> arguments() {
    return arguments;
  }

  /** The complete environment of the command; nothing else may be inherited. */
  public Map<String, String> environment() {
    return environment;
  }

  public Path workingDirectory() {
    return workingDirectory;
  }

  /** Bytes to write to stdin, after which it is closed; empty when stdin is closed at once. */
  public Optional<byte[]> stdin() {
    return Optional.ofNullable(stdin).map(byte[]::clone);
  }

  /** Wall-clock bound; when it passes the whole process tree is ended. */
  public Duration timeout() {
    return timeout;
  }

  /** How long processes get between the polite signal (TERM) and KILL. */
  public Duration terminationGrace() {
    return terminationGrace;
  }

  /** Bound on the bytes kept of each of stdout and stderr; more ends the command. */
  public long maxOutputBytes() {
    return maxOutputBytes;
  }

  /**
   * The largest file any process of the command may write ({@code RLIMIT_FSIZE}, soft and hard):
   * a write beyond it fails with {@code EFBIG} and sends {@code SIGXFSZ}.
   */
  public long maxFileBytes() {
    return maxFileBytes;
  }

  /**
   * The budget for what the command adds to its writable roots, in bytes of disk allocated (a
   * sparse file counts by the blocks it uses): the backend measures the roots while the command
   * runs and ends it, reporting {@link ResourceBound#WRITE_BUDGET}, when they grew by more.
   */
  public long maxWriteBytes() {
    return maxWriteBytes;
  }

  public NetworkMode network() {
    return network;
  }

  /**
   * For {@link NetworkMode#FILTERED} network, the host's Unix socket of the run's egress proxy: the
   * backend relays {@code 127.0.0.1:3128} inside the sandbox to it (see {@link
   * dev.capability.kernel.api.network.EgressSandbox}) and gives the command no other network.
   * Empty for any other network.
   */
  public Optional<Path> egressSocket() {
    return Optional.ofNullable(egressSocket);
  }

  /** The target repository, when the request named one. */
  public Optional<Path> repository() {
    return Optional.ofNullable(repository);
  }

  /** Directories the command may write (effective write-scope roots). */
  public List<Path> writableRoots() {
    return writableRoots;
  }

  /**
   * Absolute paths inside the repository that stay read-only even under a writable root; one
   * that does not exist must not be creatable by the command. A backend that cannot keep this
   * for a path refuses the launch.
   */
  public List<Path> protectedPaths() {
    return protectedPaths;
  }

  /** Capabilities the backend must supply for this launch, or refuse it. */
  public Set<IsolationCapability> requiredCapabilities() {
    return requiredCapabilities;
  }

  /**
   * The repository shipped instead of bound: present exactly when the backend advertises {@link
   * IsolationCapability#REMOTE_WORKSPACE} and the run has a {@link #repository()}. A backend that
   * advertises it must then bind no host path of the repository.
   */
  public Optional<ShippedWorkspace> workspace() {
    return Optional.ofNullable(workspace);
  }

  /** Builds a {@link LaunchSpec}; defaults: closed stdin, 60 s timeout, 2 s grace, 1 MiB per stream, 1 GiB per file, 4 GiB written, no network. */
  public static final class Builder {
    private final PinnedExecutable executable;
    private List<String> arguments = List.of();
    private Map<String, String> environment = new LinkedHashMap<>();
    private @Nullable Path workingDirectory;
    private byte @Nullable [] stdin;
    private Duration timeout = Duration.ofSeconds(60);
    private Duration terminationGrace = Duration.ofSeconds(2);
    private long maxOutputBytes = 1 << 20;
    private long maxFileBytes = DEFAULT_MAX_FILE_BYTES;
    private long maxWriteBytes = DEFAULT_MAX_WRITE_BYTES;
    private NetworkMode network = NetworkMode.NONE;
    private @Nullable Path egressSocket;
    private @Nullable Path repository;
    private List<Path> writableRoots = List.of();
    private List<Path> protectedPaths = List.of();
    private Set<IsolationCapability> requiredCapabilities = EnumSet.noneOf(IsolationCapability.class);
    private @Nullable ShippedWorkspace workspace;

    private Builder(PinnedExecutable executable) {
      this.executable = Objects.requireNonNull(executable, "executable");
    }

    public Builder arguments(List<String> arguments) {
      this.arguments = List.copyOf(Objects.requireNonNull(arguments, "arguments"));
      return this;
    }

    public Builder environment(Map<String, String> environment) {
      this.environment = new LinkedHashMap<>(Objects.requireNonNull(environment, "environment"));
      return this;
    }

    public Builder workingDirectory(Path workingDirectory) {
      this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
      return this;
    }

    /** Input for stdin, or null to close stdin at once. */
    public Builder stdin(byte @Nullable [] stdin) {
      this.stdin = stdin == null ? null : stdin.clone();
      return this;
    }

    public Builder timeout(Duration timeout) {
      this.timeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    public Builder terminationGrace(Duration terminationGrace) {
      this.terminationGrace = Objects.requireNonNull(terminationGrace, "terminationGrace");
      return this;
    }

    public Builder maxOutputBytes(long maxOutputBytes) {
      this.maxOutputBytes = maxOutputBytes;
      return this;
    }

    /** The largest file the command may write; positive. */
    public Builder maxFileBytes(long maxFileBytes) {
      this.maxFileBytes = maxFileBytes;
      return this;
    }

    /** The budget for what the command adds to its writable roots; positive. */
    public Builder maxWriteBytes(long maxWriteBytes) {
      this.maxWriteBytes = maxWriteBytes;
      return this;
    }

    public Builder network(NetworkMode network) {
      this.network = Objects.requireNonNull(network, "network");
      return this;
    }

    /** The egress proxy's socket for {@link NetworkMode#FILTERED} network, or null for none. */
    public Builder egressSocket(@Nullable Path egressSocket) {
      this.egressSocket = egressSocket;
      return this;
    }

    /** The target repository, or null for none. */
    public Builder repository(@Nullable Path repository) {
      this.repository = repository;
      return this;
    }

    public Builder writableRoots(List<Path> writableRoots) {
      this.writableRoots = List.copyOf(Objects.requireNonNull(writableRoots, "writableRoots"));
      return this;
    }

    /** Paths that must stay read-only, or absent when they do not exist; none by default. */
    public Builder protectedPaths(List<Path> protectedPaths) {
      this.protectedPaths = List.copyOf(Objects.requireNonNull(protectedPaths, "protectedPaths"));
      return this;
    }

    /** The repository shipped instead of bound; see {@link LaunchSpec#workspace()}. */
    public Builder workspace(@Nullable ShippedWorkspace workspace) {
      this.workspace = workspace;
      return this;
    }

    public Builder requiredCapabilities(Set<IsolationCapability> required) {
      this.requiredCapabilities = EnumSet.noneOf(IsolationCapability.class);
      this.requiredCapabilities.addAll(Objects.requireNonNull(required, "requiredCapabilities"));
      return this;
    }

    public LaunchSpec build() {
      return new LaunchSpec(this);
    }
  }
}
