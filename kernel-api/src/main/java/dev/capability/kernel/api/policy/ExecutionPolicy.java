package dev.capability.kernel.api.policy;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.backend.IsolationCapability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The operator's execution policy: which executables may run with which argv, what environment
 * they get, and the bounds every run is held to. Immutable; build one with {@link #builder()}.
 *
 * <p>A policy object is only a description. Use it through {@code ExecutionPolicies.of} or
 * {@code ExecutionPolicies.load}, which validate it (names, paths, environment deny list,
 * examples) and compute its hash; the kernel runs nothing under a policy that failed validation.
 */
public final class ExecutionPolicy {

  /** The wall-clock bound when none is set: 60 seconds. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  /** The per-stream output bound when none is set: 1 MiB. */
  public static final long DEFAULT_MAX_OUTPUT_BYTES = 1L << 20;

  /** The largest file a run may write when none is set: 1 GiB. */
  public static final long DEFAULT_MAX_FILE_BYTES = 1L << 30;

  /** The budget for what a run adds to its writable roots when none is set: 4 GiB. */
  public static final long DEFAULT_MAX_WRITE_BYTES = 4L << 30;

  /**
   * The protected paths when none are set: files that make tools in the repository run code
   * (Maven's {@code .mvn} and wrapper, CI workflows, direnv, git attributes and submodules) and
   * shell start-up files. {@code .git} at any depth and {@code .capability} are protected in
   * addition, whatever the policy says.
   */
  public static final List<String> DEFAULT_PROTECTED_PATHS = List.of(
      "**/.mvn", "mvnw", ".github/workflows", ".gitlab-ci.yml", "**/.envrc", "**/.gitattributes", ".gitmodules",
      "**/.bashrc", "**/.bash_profile", "**/.bash_login", "**/.bash_logout", "**/.profile",
      "**/.zshrc", "**/.zshenv", "**/.zprofile", "**/.zlogin", "**/.zlogout");

  /** The form of a minimum backend version: one to four dot-separated numbers. */
  private static final String MINIMUM_VERSION = "(0|[1-9][0-9]{0,8})(\\.(0|[1-9][0-9]{0,8})){0,3}";

  private final Duration timeout;
  private final long maxOutputBytes;
  private final long maxFileBytes;
  private final long maxWriteBytes;
  private final NetworkMode network;
  private final List<EgressDestination> egressAllowed;
  private final Set<String> egressPrivateAddressNames;
  private final ProjectWriteMode projectWrites;
  private final List<String> writeScopes;
  private final List<String> protectedPaths;
  private final boolean neutralizeGit;
  private final Set<IsolationCapability> requiredCapabilities;
  private final boolean allowUnisolatedFallback;
  private final Map<String, Map<String, String>> minimumBackendVersions;
  private final boolean allowRepositoryExecutables;
  private final Set<String> inheritEnvironment;
  private final Map<String, String> setEnvironment;
  private final Set<String> requestEnvironment;
  private final Set<String> acceptedDeniedEnvironment;
  private final List<ExecutableRule> executables;

  private ExecutionPolicy(Builder b) {
    this.timeout = b.timeout;
    this.maxOutputBytes = b.maxOutputBytes;
    this.maxFileBytes = b.maxFileBytes;
    this.maxWriteBytes = b.maxWriteBytes;
    this.network = b.network;
    this.egressAllowed = List.copyOf(b.egressAllowed);
    this.egressPrivateAddressNames = Collections.unmodifiableSet(new TreeSet<>(b.egressPrivateAddressNames));
    this.projectWrites = b.projectWrites;
    this.writeScopes = List.copyOf(b.writeScopes);
    this.protectedPaths = List.copyOf(b.protectedPaths);
    this.neutralizeGit = b.neutralizeGit;
    EnumSet<IsolationCapability> capabilities = EnumSet.noneOf(IsolationCapability.class);
    capabilities.addAll(b.requiredCapabilities);
    this.requiredCapabilities = Collections.unmodifiableSet(capabilities);
    this.allowUnisolatedFallback = b.allowUnisolatedFallback;
    Map<String, Map<String, String>> minimums = new TreeMap<>();
    b.minimumBackendVersions.forEach(
        (backend, components) -> minimums.put(backend, Collections.unmodifiableMap(new TreeMap<>(components))));
    this.minimumBackendVersions = Collections.unmodifiableMap(minimums);
    this.allowRepositoryExecutables = b.allowRepositoryExecutables;
    this.inheritEnvironment = Collections.unmodifiableSet(new TreeSet<>(b.inheritEnvironment));
    this.setEnvironment = Collections.unmodifiableMap(new TreeMap<>(b.setEnvironment));
    this.requestEnvironment = Collections.unmodifiableSet(new TreeSet<>(b.requestEnvironment));
    this.acceptedDeniedEnvironment = Collections.unmodifiableSet(new TreeSet<>(b.acceptedDeniedEnvironment));
    List<ExecutableRule> rules = new ArrayList<>(b.executables.values());
    rules.sort(Comparator.comparing(ExecutableRule::id));
    this.executables = List.copyOf(rules);
  }

  /**
   * A builder with every default: 60 s, 1 MiB, no network, read-only, the default protected
   * paths, git neutralized, no executables.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this policy. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.timeout = timeout;
    b.maxOutputBytes = maxOutputBytes;
    b.maxFileBytes = maxFileBytes;
    b.maxWriteBytes = maxWriteBytes;
    b.network = network;
    b.egressAllowed.addAll(egressAllowed);
    b.egressPrivateAddressNames.addAll(egressPrivateAddressNames);
    b.projectWrites = projectWrites;
    b.writeScopes.addAll(writeScopes);
    b.protectedPaths.clear();
    b.protectedPaths.addAll(protectedPaths);
    b.neutralizeGit = neutralizeGit;
    b.requiredCapabilities.addAll(requiredCapabilities);
    b.allowUnisolatedFallback = allowUnisolatedFallback;
    minimumBackendVersions.forEach(
        (backend, components) -> components.forEach((component, version) -> b.minimumBackendVersion(backend, component, version)));
    b.allowRepositoryExecutables = allowRepositoryExecutables;
    b.inheritEnvironment.addAll(inheritEnvironment);
    b.setEnvironment.putAll(setEnvironment);
    b.requestEnvironment.addAll(requestEnvironment);
    b.acceptedDeniedEnvironment.addAll(acceptedDeniedEnvironment);
    executables.forEach(b::executable);
    return b;
  }

  /** The wall-clock bound of every run. */
  public Duration timeout() {
    return timeout;
  }

  /** The bound on the bytes kept of each of stdout and stderr. */
  public long maxOutputBytes() {
    return maxOutputBytes;
  }

  /**
   * The largest file any process of a run may write ({@code RLIMIT_FSIZE}); a write beyond it
   * fails with {@code EFBIG}.
   */
  public long maxFileBytes() {
    return maxFileBytes;
  }

  /**
   * The budget for what a run adds to its writable roots, in bytes of disk allocated; a run whose
   * roots grow by more is ended with the status {@code WRITE_LIMIT}.
   */
  public long maxWriteBytes() {
    return maxWriteBytes;
  }

  /** What network commands may reach. */
  public NetworkMode network() {
    return network;
  }

  /**
   * Under {@link NetworkMode#FILTERED} network, the only destinations commands may connect to,
   * through the egress proxy ({@code egress.allow} in the file), in file order without duplicates.
   */
  public List<EgressDestination> egressAllowed() {
    return egressAllowed;
  }

  /**
   * Hosts of {@link #egressAllowed()} that may resolve to loopback or private addresses ({@code
   * egress.allowPrivateAddresses} in the file), sorted; see {@link
   * dev.capability.kernel.api.network.EgressRules#privateAddressNames()}.
   */
  public Set<String> egressPrivateAddressNames() {
    return egressPrivateAddressNames;
  }

  /** Whether commands may write into the target repository. */
  public ProjectWriteMode projectWrites() {
    return projectWrites;
  }

  /**
   * Repository-relative glob patterns commands may write when {@link #projectWrites()} is
   * {@link ProjectWriteMode#SCOPED}; {@code *}, {@code ?} and classes such as {@code [a-z]} match
   * within one path segment, {@code **} as a whole segment matches any number of segments, and no
   * wildcard matches the {@code .} that starts a hidden name. See {@code docs/authority.md}.
   */
  public List<String> writeScopes() {
    return writeScopes;
  }

  /**
   * Repository-relative glob patterns no command may write, whatever the write scopes say: a
   * path is protected when it or a directory above it matches one. Wildcards here match hidden
   * names too. {@code .git} at any depth and {@code .capability} are protected in addition.
   */
  public List<String> protectedPaths() {
    return protectedPaths;
  }

  /**
   * Whether git commands run with repository-driven helpers switched off (fsmonitor, hooks,
   * pager, editors, credential and askpass helpers, system configuration); on by default.
   */
  public boolean neutralizeGit() {
    return neutralizeGit;
  }

  /** Capabilities the backend must supply for every run, or the run is refused. */
  public Set<IsolationCapability> requiredCapabilities() {
    return requiredCapabilities;
  }

  /**
   * Whether a command for which no backend was named may run on a backend that is not a sandbox
   * (the {@code process} backend) when no sandbox fits; off by default, so that a broken or missing
   * sandbox refuses the run instead of running it unconfined. Naming a backend is not affected.
   */
  public boolean allowUnisolatedFallback() {
    return allowUnisolatedFallback;
  }

  /**
   * The least version of each component that enforces a backend, by backend id and component
   * name ({@code backendVersions} in the file): for example {@code docker} → {@code daemon} →
   * {@code 20.10}. A run on a backend whose version of a named component is lower, or unknown, is
   * refused before launch ({@code BACKEND_VERSION_TOO_OLD}); backends not named here are not
   * checked. Sorted by backend and component.
   */
  public Map<String, Map<String, String>> minimumBackendVersions() {
    return minimumBackendVersions;
  }

  /** Whether an executable resolved inside the target repository may run. */
  public boolean allowRepositoryExecutables() {
    return allowRepositoryExecutables;
  }

  /** Names of host environment variables passed on to commands when the host has them. */
  public Set<String> inheritEnvironment() {
    return inheritEnvironment;
  }

  /** Environment variables every command gets with exactly these values. */
  public Map<String, String> setEnvironment() {
    return setEnvironment;
  }

  /**
   * Names a request may give a value for, one run at a time ({@code environment.request} in the
   * file); sorted. A request naming any other variable is denied.
   */
  public Set<String> requestEnvironment() {
    return requestEnvironment;
  }

  /**
   * Names on the built-in deny list the operator accepts for {@link #inheritEnvironment()} or
   * {@link #setEnvironment()} ({@code environment.acceptDenied} in the file); sorted. Only
   * toolchain variables such as {@code MAVEN_OPTS} can be accepted, never loader or shell ones, and
   * the attestation names every accepted variable a command got.
   */
  public Set<String> acceptedDeniedEnvironment() {
    return acceptedDeniedEnvironment;
  }

  /** The executable rules, ordered by id. */
  public List<ExecutableRule> executables() {
    return executables;
  }

  /** The executable rule with {@code id}, if there is one. */
  public Optional<ExecutableRule> executable(String id) {
    return executables.stream().filter(rule -> rule.id().equals(id)).findFirst();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ExecutionPolicy that
        && timeout.equals(that.timeout)
        && maxOutputBytes == that.maxOutputBytes
        && maxFileBytes == that.maxFileBytes
        && maxWriteBytes == that.maxWriteBytes
        && network == that.network
        && egressAllowed.equals(that.egressAllowed)
        && egressPrivateAddressNames.equals(that.egressPrivateAddressNames)
        && projectWrites == that.projectWrites
        && writeScopes.equals(that.writeScopes)
        && protectedPaths.equals(that.protectedPaths)
        && neutralizeGit == that.neutralizeGit
        && requiredCapabilities.equals(that.requiredCapabilities)
        && allowUnisolatedFallback == that.allowUnisolatedFallback
        && minimumBackendVersions.equals(that.minimumBackendVersions)
        && allowRepositoryExecutables == that.allowRepositoryExecutables
        && inheritEnvironment.equals(that.inheritEnvironment)
        && setEnvironment.equals(that.setEnvironment)
        && requestEnvironment.equals(that.requestEnvironment)
        && acceptedDeniedEnvironment.equals(that.acceptedDeniedEnvironment)
        && executables.equals(that.executables);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        timeout, maxOutputBytes, maxFileBytes, maxWriteBytes, network, egressAllowed, egressPrivateAddressNames, projectWrites, writeScopes, protectedPaths, neutralizeGit, requiredCapabilities,
        allowUnisolatedFallback, minimumBackendVersions, allowRepositoryExecutables, inheritEnvironment, setEnvironment, requestEnvironment,
        acceptedDeniedEnvironment, executables);
  }

  @Override
  public String toString() {
    return "ExecutionPolicy[timeout=" + timeout
        + ", maxOutputBytes=" + maxOutputBytes
        + ", maxFileBytes=" + maxFileBytes
        + ", maxWriteBytes=" + maxWriteBytes
        + ", network=" + network
        + ", egressAllowed=" + egressAllowed
        + ", egressPrivateAddressNames=" + egressPrivateAddressNames
        + ", projectWrites=" + projectWrites
        + ", writeScopes=" + writeScopes
        + ", protectedPaths=" + protectedPaths
        + ", neutralizeGit=" + neutralizeGit
        + ", requiredCapabilities=" + requiredCapabilities
        + ", allowUnisolatedFallback=" + allowUnisolatedFallback
        + ", minimumBackendVersions=" + minimumBackendVersions
        + ", allowRepositoryExecutables=" + allowRepositoryExecutables
        + ", inheritEnvironment=" + inheritEnvironment
        + ", setEnvironment=" + setEnvironment.keySet()
        + ", requestEnvironment=" + requestEnvironment
        + ", acceptedDeniedEnvironment=" + acceptedDeniedEnvironment
        + ", executables=" + executables.stream().map(ExecutableRule::id).toList() + "]";
  }

  /** Builds an {@link ExecutionPolicy}; see {@link ExecutionPolicy#builder()} for the defaults. */
  public static final class Builder {
    private Duration timeout = DEFAULT_TIMEOUT;
    private long maxOutputBytes = DEFAULT_MAX_OUTPUT_BYTES;
    private long maxFileBytes = DEFAULT_MAX_FILE_BYTES;
    private long maxWriteBytes = DEFAULT_MAX_WRITE_BYTES;
    private NetworkMode network = NetworkMode.NONE;
    private final List<EgressDestination> egressAllowed = new ArrayList<>();
    private final Set<String> egressPrivateAddressNames = new TreeSet<>();
    private ProjectWriteMode projectWrites = ProjectWriteMode.READ_ONLY;
    private final List<String> writeScopes = new ArrayList<>();
    private final List<String> protectedPaths = new ArrayList<>(DEFAULT_PROTECTED_PATHS);
    private boolean neutralizeGit = true;
    private final Set<IsolationCapability> requiredCapabilities = EnumSet.noneOf(IsolationCapability.class);
    private boolean allowUnisolatedFallback;
    private final Map<String, Map<String, String>> minimumBackendVersions = new TreeMap<>();
    private boolean allowRepositoryExecutables;
    private final Set<String> inheritEnvironment = new TreeSet<>();
    private final Map<String, String> setEnvironment = new TreeMap<>();
    private final Set<String> requestEnvironment = new TreeSet<>();
    private final Set<String> acceptedDeniedEnvironment = new TreeSet<>();
    private final Map<String, ExecutableRule> executables = new LinkedHashMap<>();

    private Builder() {}

    /** The wall-clock bound of every run: whole milliseconds, 1 ms to 24 h. */
    public Builder timeout(Duration timeout) {
      this.timeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** The bound on the bytes kept of each output stream: 1 to 1 GiB. */
    public Builder maxOutputBytes(long maxOutputBytes) {
      this.maxOutputBytes = maxOutputBytes;
      return this;
    }

    /** The largest file a run may write: 1 byte to 1 PiB. */
    public Builder maxFileBytes(long maxFileBytes) {
      this.maxFileBytes = maxFileBytes;
      return this;
    }

    /** The budget for what a run adds to its writable roots: 1 byte to 1 PiB. */
    public Builder maxWriteBytes(long maxWriteBytes) {
      this.maxWriteBytes = maxWriteBytes;
      return this;
    }

    /** What network commands may reach. */
    public Builder network(NetworkMode network) {
      this.network = Objects.requireNonNull(network, "network");
      return this;
    }

    /** Replaces the destinations of {@link NetworkMode#FILTERED} network; duplicates are dropped. */
    public Builder egressAllowed(List<EgressDestination> destinations) {
      List<EgressDestination> copy = List.copyOf(new LinkedHashSet<>(Objects.requireNonNull(destinations, "destinations")));
      this.egressAllowed.clear();
      this.egressAllowed.addAll(copy);
      return this;
    }

    /** Replaces the allowed hosts that may resolve to loopback or private addresses. */
    public Builder egressPrivateAddressNames(Set<String> names) {
      Set<String> copy = Set.copyOf(Objects.requireNonNull(names, "names"));
      this.egressPrivateAddressNames.clear();
      this.egressPrivateAddressNames.addAll(copy);
      return this;
    }

    /** Whether commands may write the repository; {@link ProjectWriteMode#SCOPED} needs write scopes. */
    public Builder projectWrites(ProjectWriteMode projectWrites) {
      this.projectWrites = Objects.requireNonNull(projectWrites, "projectWrites");
      return this;
    }

    /** Replaces the write scopes. */
    public Builder writeScopes(List<String> writeScopes) {
      List<String> copy = List.copyOf(Objects.requireNonNull(writeScopes, "writeScopes"));
      this.writeScopes.clear();
      this.writeScopes.addAll(copy);
      return this;
    }

    /** Replaces the protected paths; the default is {@link #DEFAULT_PROTECTED_PATHS}. */
    public Builder protectedPaths(List<String> protectedPaths) {
      List<String> copy = List.copyOf(Objects.requireNonNull(protectedPaths, "protectedPaths"));
      this.protectedPaths.clear();
      this.protectedPaths.addAll(copy);
      return this;
    }

    /** Whether git commands run with repository-driven helpers switched off; on by default. */
    public Builder neutralizeGit(boolean neutralize) {
      this.neutralizeGit = neutralize;
      return this;
    }

    /** Adds required backend capabilities. */
    public Builder require(IsolationCapability... capabilities) {
      requiredCapabilities.addAll(List.of(capabilities));
      return this;
    }

    /** Whether a backend that is not a sandbox may run a command nobody named a backend for; off by default. */
    public Builder allowUnisolatedFallback(boolean allow) {
      this.allowUnisolatedFallback = allow;
      return this;
    }

    /**
     * Requires at least {@code version} of {@code component} of backend {@code backendId}; see
     * {@link ExecutionPolicy#minimumBackendVersions()}.
     *
     * @param backendId a backend id, lower-case letters, digits and {@code -}, such as {@code docker}
     * @param component a component that backend names in its versions, same characters, such as
     *     {@code daemon}
     * @param version one to four dot-separated numbers, such as {@code 20.10}
     * @throws IllegalArgumentException when one of them has another form
     */
    public Builder minimumBackendVersion(String backendId, String component, String version) {
      requireName(Objects.requireNonNull(backendId, "backendId"), "backend id");
      requireName(Objects.requireNonNull(component, "component"), "backend component");
      if (!Objects.requireNonNull(version, "version").matches(MINIMUM_VERSION)) {
        throw new IllegalArgumentException(
            "the minimum version of " + backendId + " " + component + " must be one to four dot-separated numbers"
                + " such as 20.10, not '" + version + "'");
      }
      minimumBackendVersions.computeIfAbsent(backendId, id -> new TreeMap<>()).put(component, version);
      return this;
    }

    private static void requireName(String name, String what) {
      if (!name.matches("[a-z][a-z0-9-]{0,63}")) {
        throw new IllegalArgumentException(
            "a " + what + " is lower-case letters, digits and '-', starting with a letter, not '" + name + "'");
      }
    }

    /** Whether an executable resolved inside the target repository may run. */
    public Builder allowRepositoryExecutables(boolean allow) {
      this.allowRepositoryExecutables = allow;
      return this;
    }

    /** Adds names of host environment variables to pass on. */
    public Builder inheritEnvironment(String... names) {
      inheritEnvironment.addAll(List.of(names));
      return this;
    }

    /** Sets environment variable {@code name} to {@code value} for every command. */
    public Builder setEnvironment(String name, String value) {
      setEnvironment.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Lets requests give these variables a value for one run. Names on the built-in deny list,
     * and {@code PATH}, {@code HOME}, {@code XDG_CONFIG_HOME}, {@code XDG_CONFIG_DIRS} and
     * {@code GIT_*}, are refused when the policy loads.
     */
    public Builder requestEnvironment(String... names) {
      for (String name : names) {
        requestEnvironment.add(Objects.requireNonNull(name, "name"));
      }
      return this;
    }

    /**
     * Accepts these names on the built-in deny list for {@link #inheritEnvironment} or
     * {@link #setEnvironment}. Each must also be inherited or set; loader and shell variables
     * ({@code LD_*}, {@code BASH_ENV}, ...) are refused when the policy loads.
     */
    public Builder acceptDeniedEnvironment(String... names) {
      for (String name : names) {
        acceptedDeniedEnvironment.add(Objects.requireNonNull(name, "name"));
      }
      return this;
    }

    /**
     * Adds an executable rule.
     *
     * @throws IllegalArgumentException when a rule with the same id was added before
     */
    public Builder executable(ExecutableRule rule) {
      Objects.requireNonNull(rule, "rule");
      if (executables.putIfAbsent(rule.id(), rule) != null) {
        throw new IllegalArgumentException("two executable rules have the id " + rule.id());
      }
      return this;
    }

    /** Removes the executable rule with {@code id}, if there is one. */
    public Builder removeExecutable(String id) {
      executables.remove(Objects.requireNonNull(id, "id"));
      return this;
    }

    /**
     * The policy; it is validated when it is loaded through {@code ExecutionPolicies}.
     *
     * @throws IllegalArgumentException when a private-address name is not the host of an allowed
     *     destination
     */
    public ExecutionPolicy build() {
      for (String name : egressPrivateAddressNames) {
        if (egressAllowed.stream().noneMatch(d -> d.host().equals(name))) {
          throw new IllegalArgumentException(
              "egress private address name '" + name + "' is not the host of an allowed destination");
        }
      }
      return new ExecutionPolicy(this);
    }
  }
}
