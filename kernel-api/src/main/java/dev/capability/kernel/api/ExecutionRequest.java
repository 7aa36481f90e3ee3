package dev.capability.kernel.api;

import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.backend.IsolationCapability;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A request to run one command. The command is an argv list (preferred) or a string that the
 * kernel splits with POSIX word rules and no shell. Limits given here can only narrow the
 * policy's; the policy always wins.
 */
public final class ExecutionRequest {
  private final @Nullable List<String> argv;
  private final @Nullable String command;
  private final @Nullable Path repository;
  private final @Nullable Path workingDirectory;
  private final @Nullable Duration timeout;
  private final @Nullable Long maxOutputBytes;
  private final byte @Nullable [] stdin;
  private final @Nullable String backendId;
  private final Set<IsolationCapability> requiredCapabilities;
  private final List<AuthorityLayer> layers;
  private final Map<String, String> environment;

  private ExecutionRequest(Builder b) {
    if ((b.argv == null) == (b.command == null)) {
      throw new IllegalArgumentException("give exactly one of argv and command");
    }
    if (b.argv != null && b.argv.isEmpty()) {
      throw new IllegalArgumentException("argv must not be empty");
    }
    this.argv = b.argv;
    this.command = b.command;
    this.repository = b.repository;
    this.workingDirectory = b.workingDirectory;
    this.timeout = b.timeout;
    this.maxOutputBytes = b.maxOutputBytes;
    this.stdin = b.stdin;
    this.backendId = b.backendId;
    this.requiredCapabilities = Set.copyOf(b.requiredCapabilities);
    this.layers = List.copyOf(b.layers);
    this.environment = Collections.unmodifiableMap(new TreeMap<>(b.environment));
  }

  /** A request for an argv list; argv[0] names the executable. */
  public static Builder argv(List<String> argv) {
    Builder b = new Builder();
    b.argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
    return b;
  }

  /** A request for an argv list; argv[0] names the executable. */
  public static Builder argv(String... argv) {
    return argv(List.of(argv));
  }

  /** A request for a command string, split without a shell. */
  public static Builder command(String command) {
    Builder b = new Builder();
    b.command = Objects.requireNonNull(command, "command");
    return b;
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.argv = argv;
    b.command = command;
    b.repository = repository;
    b.workingDirectory = workingDirectory;
    b.timeout = timeout;
    b.maxOutputBytes = maxOutputBytes;
    b.stdin = stdin;
    b.backendId = backendId;
    b.requiredCapabilities.addAll(requiredCapabilities);
    b.layers.addAll(layers);
    b.environment.putAll(environment);
    return b;
  }

  public Optional<List<String>> argv() {
    return Optional.ofNullable(argv);
  }

  public Optional<String> command() {
    return Optional.ofNullable(command);
  }

  public Optional<Path> repository() {
    return Optional.ofNullable(repository);
  }

  public Optional<Path> workingDirectory() {
    return Optional.ofNullable(workingDirectory);
  }

  public Optional<Duration> timeout() {
    return Optional.ofNullable(timeout);
  }

  public Optional<Long> maxOutputBytes() {
    return Optional.ofNullable(maxOutputBytes);
  }

  public Optional<byte[]> stdin() {
    return Optional.ofNullable(stdin).map(byte[]::clone);
  }

  public Optional<String> backendId() {
    return Optional.ofNullable(backendId);
  }

  public Set<IsolationCapability> requiredCapabilities() {
    return requiredCapabilities;
  }

  /** Authority layers below the operator (project contract, phase, correction) that narrow this request. */
  public List<AuthorityLayer> layers() {
    return layers;
  }

  /**
   * Environment variables for this run only, by name, sorted. Each name must be listed in the
   * policy's {@code environment.request}; otherwise the request is denied. Values are passed to
   * the command and never recorded; the attestation records the names.
   */
  public Map<String, String> environment() {
    return environment;
  }

  /** Builds an {@link ExecutionRequest}. */
  public static final class Builder {
    private @Nullable List<String> argv;
    private @Nullable String command;
    private @Nullable Path repository;
    private @Nullable Path workingDirectory;
    private @Nullable Duration timeout;
    private @Nullable Long maxOutputBytes;
    private byte @Nullable [] stdin;
    private @Nullable String backendId;
    private final Set<IsolationCapability> requiredCapabilities = EnumSet.noneOf(IsolationCapability.class);
    private final List<AuthorityLayer> layers = new ArrayList<>();
    private final Map<String, String> environment = new TreeMap<>();

    private Builder() {}

    /**
     * Gives the command variable {@code name} with {@code value} for this run; a later call for the
     * same name replaces the value. The kernel decides it: a name the policy's
     * {@code environment.request} does not list, a name the kernel never passes, or a value with
     * a NUL character is a denial ({@code ENVIRONMENT_NOT_ALLOWED}, {@code ENVIRONMENT_DENIED},
     * {@code ENVIRONMENT_INVALID}), not an exception.
     */
    public Builder environment(String name, String value) {
      environment.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Narrows the operator's authority with a project contract, phase or correction layer. A
     * layer can only narrow: one that would widen the operator's is refused when the command is
     * decided.
     */
    public Builder layer(AuthorityLayer layer) {
      layers.add(Objects.requireNonNull(layer, "layer"));
      return this;
    }

    /** The target repository: the root of write scopes and of the audit. */
    public Builder repository(Path repository) {
      this.repository = Objects.requireNonNull(repository, "repository");
      return this;
    }

    /** Where the command runs; defaults to the repository, else the host's working directory. */
    public Builder workingDirectory(Path workingDirectory) {
      this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
      return this;
    }

    /** A shorter wall-clock bound than the policy's; a longer one is capped to the policy's. */
    public Builder timeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, was " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** A smaller per-stream output bound than the policy's; a larger one is capped. */
    public Builder maxOutputBytes(long maxOutputBytes) {
      if (maxOutputBytes <= 0) {
        throw new IllegalArgumentException("maxOutputBytes must be positive, was " + maxOutputBytes);
      }
      this.maxOutputBytes = maxOutputBytes;
      return this;
    }

    /** Bytes for the command's stdin; without them stdin is closed. */
    public Builder stdin(byte[] stdin) {
      this.stdin = Objects.requireNonNull(stdin, "stdin").clone();
      return this;
    }

    /** Use exactly this backend; without it the kernel picks the strongest that fits. */
    public Builder backend(String backendId) {
      this.backendId = Objects.requireNonNull(backendId, "backendId");
      return this;
    }

    /** Capabilities the backend must supply, on top of the policy's. */
    public Builder require(IsolationCapability... capabilities) {
      requiredCapabilities.addAll(List.of(capabilities));
      return this;
    }

    public ExecutionRequest build() {
      return new ExecutionRequest(this);
    }
  }
}
