package dev.capability.capability.runtime.internal.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.CapabilityDescriptor;
import dev.capability.capability.runtime.CapabilityRequest;
import dev.capability.capability.runtime.CapabilityResult;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectKind;
import dev.capability.capability.runtime.EffectViolation;
import dev.capability.capability.runtime.Executor;
import dev.capability.capability.runtime.ExecutorIdentity;
import dev.capability.capability.runtime.Hook;
import dev.capability.capability.runtime.HookOutcome;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressGateway;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.core.Backends;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.linux.SeccompFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs a capability in a fresh JVM ({@link CapabilityHost}) launched through the
 * {@link CommandKernel}, so the launch is bounded, its environment emptied and attested by the
 * kernel, and confined by the chosen backend. The kernel policy is built per run from the grants:
 * it allows exactly one argv of the host's own {@code java} by canonical path, no network unless
 * {@code network.connect} was granted, and then only the granted {@code host:port} scopes through
 * the kernel's egress proxy ({@link NetworkMode#FILTERED}; a backend that cannot supply it refuses
 * the run with {@code NETWORK_FILTER_UNAVAILABLE}, never the host network), and writes only under
 * granted {@code filesystem.write} paths. Without a grant, the plain {@code process} backend cannot
 * take the network away, so such a run has the host network and is attested with it. Granted paths must lie under the base directory, which the sandbox shows read-only. Unless
 * {@code process.spawn} was granted, the child makes itself unable to start programs (a seccomp
 * filter, {@link ProgramStarts}) before it defines the capability's classes; where this JVM cannot
 * load libseccomp, such a run is refused before launch.
 *
 * <p>The plain {@code process} backend is no boundary: this executor refuses it unless built
 * with {@code allowUnisolated}, and is then never chosen automatically.
 */
public final class ChildJvmExecutor implements Executor {
  /** The id hosts name to choose this executor. */
  public static final String ID = "child-jvm";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PROCESS_BACKEND = "process";
  /**
   * The grants this executor can hold the child to. {@code code.dynamic} opens nothing: it says
   * the effect scan cannot vouch for the code, and the sandbox confines the code whatever it runs.
   * {@code process.spawn} lets the child start programs, any program the sandbox shows, not only
   * the granted one: they run in the same sandbox, with the same grants.
   */
  private static final Set<EffectKind> CONFINABLE =
      EnumSet.of(
          EffectKind.FILESYSTEM_READ, EffectKind.FILESYSTEM_WRITE, EffectKind.NETWORK_CONNECT, EffectKind.PROCESS_SPAWN, EffectKind.CODE_DYNAMIC);
  /**
   * What a backend must supply to be chosen for this executor without being named: a sandbox that
   * takes the network away, shows the base directory read-only and only granted paths writable,
   * and runs as an unprivileged uid that cannot gain privileges. The plain {@code process} backend
   * supplies none of it, so it is never chosen automatically.
   */
  public static final Set<IsolationCapability> REQUIRED_ISOLATION = Collections.unmodifiableSet(EnumSet.of(
      IsolationCapability.NETWORK_NAMESPACE,
      IsolationCapability.READ_ONLY_REPOSITORY,
      IsolationCapability.WRITABLE_SCOPE_ROOTS,
      IsolationCapability.NON_ROOT,
      IsolationCapability.NO_NEW_PRIVILEGES));
  private static final List<String> JVM_OPTIONS =
      List.of("-XX:+DisableAttachMechanism", "-XX:-UsePerfData", "-XX:+UseG1GC", "-XX:TieredStopAtLevel=1", "-Xmx128m", "-Xss1m");

  private final Backends backends;
  private final boolean closesBackends;
  private final String backendId;
  private final boolean allowUnisolated;
  private final Path baseDirectory;
  private final Optional<Path> classDataArchive;
  private final Optional<EgressGateway> egressGateway;
  private final Set<String> egressPrivateAddressNames;
  private Boolean available;
  private ExecutionBackend selected;

  /**
   * @param backendId the kernel backend to launch through
   * @param allowUnisolated whether the plain {@code process} backend may be used
   * @param backends backend instances to use, which stay open; empty to find every backend on the
   *     class path through the kernel's registry ({@link Backends#discover}) on the first run, kept
   *     for the executor's lifetime ({@link #close()} closes them)
   * @param baseDirectory where relative effect scopes resolve; granted paths must lie under it
   */
  public ChildJvmExecutor(String backendId, boolean allowUnisolated, List<ExecutionBackend> backends, Path baseDirectory) {
    this(backendId, allowUnisolated, backends, baseDirectory, Optional.empty());
  }

  /**
   * @param classDataArchive an operator's AppCDS archive of the host's class path that the child
   *     JVM maps ({@code -XX:SharedArchiveFile}); see {@link ClassDataArchive} for what it must be
   */
  public ChildJvmExecutor(
      String backendId, boolean allowUnisolated, List<ExecutionBackend> backends, Path baseDirectory, Optional<Path> classDataArchive) {
    this(
        Objects.requireNonNull(backends, "backends").isEmpty()
            ? Backends.discover(ChildJvmExecutor.class.getClassLoader(), BackendConfig.defaults())
            : Backends.given(backends),
        backends.isEmpty(),
        Objects.requireNonNull(backendId, "backendId"),
        allowUnisolated,
        baseDirectory,
        classDataArchive,
        Optional.empty(),
        Set.of(),
        null);
  }

  private ChildJvmExecutor(
      Backends backends,
      boolean closesBackends,
      String backendId,
      boolean allowUnisolated,
      Path baseDirectory,
      Optional<Path> classDataArchive,
      Optional<EgressGateway> egressGateway,
      Set<String> egressPrivateAddressNames,
      ExecutionBackend selected) {
    this.backends = backends;
    this.closesBackends = closesBackends;
    this.backendId = backendId;
    this.allowUnisolated = allowUnisolated;
    this.baseDirectory = Objects.requireNonNull(baseDirectory, "baseDirectory").toAbsolutePath().normalize();
    this.classDataArchive = Objects.requireNonNull(classDataArchive, "classDataArchive").map(ClassDataArchive::requireAbsolute);
    this.egressGateway = Objects.requireNonNull(egressGateway, "egressGateway");
    this.egressPrivateAddressNames = Set.copyOf(new TreeSet<>(requirePrivateAddressNames(egressPrivateAddressNames)));
    this.selected = selected;
  }

  /**
   * An executor on the backend {@code backendId} of {@code backends}, looked up on the first run.
   *
   * @param closesBackends whether {@link #close()} closes {@code backends}: true when the executor
   *     is their only user
   */
  public static ChildJvmExecutor named(
      Backends backends, boolean closesBackends, String backendId, boolean allowUnisolated, Path baseDirectory, Optional<Path> classDataArchive) {
    return new ChildJvmExecutor(
        Objects.requireNonNull(backends, "backends"), closesBackends, Objects.requireNonNull(backendId, "backendId"), allowUnisolated,
        baseDirectory, classDataArchive, Optional.empty(), Set.of(), null);
  }

  /**
   * An executor on the backend the kernel's one selection rule ({@link
   * dev.capability.kernel.core.BackendSelection}) chooses among {@code backends}: the strongest
   * available sandbox that supplies {@link #REQUIRED_ISOLATION}, never the unisolated {@code
   * process} backend. The choice is made now, before anything is planned, because the backend's id
   * is part of the executor's identity and so of every plan's fingerprint.
   *
   * @param closesBackends whether {@link #close()} closes {@code backends}
   * @throws dev.capability.kernel.api.BackendUnavailableException {@code ISOLATION_UNAVAILABLE}
   *     naming every backend and why it does not fit, when none does
   */
  public static ChildJvmExecutor choosing(
      Backends backends, boolean closesBackends, Path baseDirectory, Optional<Path> classDataArchive) {
    ExecutionBackend chosen = backends.select(REQUIRED_ISOLATION, false);
    return new ChildJvmExecutor(
        backends, closesBackends, chosen.id(), false, baseDirectory, classDataArchive, Optional.empty(), Set.of(), chosen);
  }

  /**
   * This executor with the operator's egress settings; use it in place of this one, before any run.
   *
   * @param gateway the egress proxy service runs with granted {@code network.connect} use; empty
   *     for the kernel's own (found on the class path)
   * @param privateAddressNames lower-case DNS names that may resolve to
   *     loopback or private addresses when a run is granted them, for services on the operator's
   *     own network or loopback: an operator's setting, never a package's. A plan binds them
   *     (they are part of {@link #identity()})
   * @throws IllegalArgumentException for a name that is not a lower-case DNS name
   */
  public ChildJvmExecutor withEgress(Optional<EgressGateway> gateway, Set<String> privateAddressNames) {
    return new ChildJvmExecutor(
        backends, closesBackends, backendId, allowUnisolated, baseDirectory, classDataArchive, gateway, privateAddressNames, selected);
  }

  private static Set<String> requirePrivateAddressNames(Set<String> names) {
    for (String name : Objects.requireNonNull(names, "egressPrivateAddressNames")) {
      privateAddressName(name);
    }
    return names;
  }

  /**
   * Refuses {@code name} unless it is a lower-case DNS name: the proxy refuses every loopback or
   * private IP literal, so only a name can be let through to such an address.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static String privateAddressName(String name) {
    if (new EgressDestination(name, 1).isIpLiteral()) {
      throw new IllegalArgumentException(
          "'" + name + "' is an IP literal; the egress proxy never connects to a private IP literal, only a granted name may lead to one");
    }
    return name;
  }

  @Override
  public ExecutorIdentity identity() {
    // The root is part of what a plan binds: the same scopes under another directory are other files.
    Map<String, String> advertises =
        new TreeMap<>(Map.of("backend", backendId, "isolation", isolated() ? "sandbox" : "none", "root", baseDirectory.toString()));
    if (!egressPrivateAddressNames.isEmpty()) {
      // Which granted names may reach private addresses is part of what an approval allows.
      advertises.put("egressPrivateAddressNames", String.join(",", new TreeSet<>(egressPrivateAddressNames)));
    }
    return new ExecutorIdentity(ID, new TreeMap<>(advertises));
  }

  @Override
  public int isolationStrength() {
    return isolated() ? 2 : 0;
  }

  @Override
  public boolean explicitOnly() {
    return !isolated();
  }

  @Override
  public synchronized boolean available() {
    if (available == null) {
      // Finding out is creating the backend the runs will use: it is kept, not probed twice.
      try {
        backend();
        available = true;
      } catch (CapabilityException unavailable) {
        available = false;
      }
    }
    return available;
  }

  private boolean isolated() {
    return !backendId.equals(PROCESS_BACKEND);
  }

  private synchronized ExecutionBackend backend() {
    if (selected == null) {
      try {
        // Named: used whatever it supplies, as for exec; the kernel refuses a policy it cannot keep.
        selected = backends.select(backendId, Set.of());
      } catch (BackendUnavailableException e) {
        throw new CapabilityException(CapabilityCodes.ISOLATION_UNAVAILABLE, e.getMessage(), e);
      }
    }
    return selected;
  }

  /** Closes the backends when this executor was made their only user; backends shared with it stay open. */
  @Override
  public synchronized void close() {
    if (closesBackends) {
      backends.close();
    }
  }

  @Override
  public CapabilityResult execute(CapabilityRequest request) {
    if (!isolated() && !allowUnisolated) {
      throw new CapabilityException(
          CapabilityCodes.ISOLATION_UNAVAILABLE,
          "the plain process backend gives untrusted code no boundary; it must be allowed explicitly");
    }
    Grants grants = grants(request.granted());
    if (grants.network().filtered()) {
      requireFilteredEgress(grants.network());
    }
    if (!grants.startsPrograms()) {
      requireProgramStartsCanBeForbidden();
    }
    classDataArchive.ifPresent(archive -> ClassDataArchive.check(archive, grants.writable()));
    for (Effect effect : request.granted()) {
      if (effect.kind() == EffectKind.FILESYSTEM_WRITE) {
        requireWritableDirectory(effect, underBase(effect));
      }
    }
    Path staging;
    try {
      // The sandbox runs as another user: it must be able to read what is staged here.
      staging =
          Files.createTempDirectory("capability-run", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")))
              .toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the run's staging directory", e);
    }
    try {
      return launch(request, grants, staging);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stage the run in " + staging, e);
    } finally {
      deleteQuietly(staging);
    }
  }

  private CapabilityResult launch(CapabilityRequest request, Grants grants, Path staging) throws IOException {
    CapabilityDescriptor descriptor = request.pkg().descriptor();
    String modulePath = descriptor.entry().module();
    byte[] module =
        request.pkg().module(modulePath)
            .orElseThrow(() -> new CapabilityException(CapabilityCodes.MODULE_MISSING, "module " + modulePath + " is not in the package"));
    Path jar = staging.resolve("module.jar");
    Files.write(jar, module);
    // Relative to the child's working directory (the staging directory), so that the class path
    // is the same string on every run, as a class-data archive requires.
    String classPath =
        HostClassPath.stage(staging).stream().map(entry -> staging.relativize(entry).toString()).collect(Collectors.joining(":"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java").toRealPath();
    List<String> arguments = new ArrayList<>(JVM_OPTIONS);
    arguments.addAll(grants.network().jvmOptions());
    arguments.addAll(HostClassPath.JVM_OPTIONS);
    classDataArchive.ifPresent(archive -> arguments.addAll(ClassDataArchive.jvmOptions(archive)));
    arguments.addAll(List.of("-cp", classPath, CapabilityHost.class.getName()));
    List<String> argv = new ArrayList<>();
    argv.add(java.toString());
    argv.addAll(arguments);

    ExecutionPolicy.Builder policyBuilder =
        ExecutionPolicy.builder()
            .projectWrites(grants.writeScopes().isEmpty() ? ProjectWriteMode.READ_ONLY : ProjectWriteMode.SCOPED)
            .writeScopes(grants.writeScopes())
            .executable(ExecutableRule.atPath("java", java).exact(arguments.toArray(String[]::new)).build());
    // The plain process backend cannot take the network away and the kernel refuses a policy it
    // cannot keep: a run on it without a network grant is attested with the host network it has.
    grants.network().applyTo(policyBuilder, isolated());
    ExecutionPolicy policy = policyBuilder.build();
    HostRequest hostRequest =
        new HostRequest(
            jar.toString(),
            descriptor.moduleDigests().get(modulePath),
            descriptor.entry().className(),
            request.inputJson(),
            grants.readable(),
            grants.writable(),
            descriptor.hooks().contains(Hook.VERIFY),
            descriptor.hooks().contains(Hook.ROLLBACK),
            grants.startsPrograms());

    // Only the one backend, created once: probing and creating backends per run cost more than
    // the kernel's whole pipeline. The kernel is not closed, since closing it closes the backend.
    CommandKernel.Builder kernelBuilder =
        CommandKernel.builder(ExecutionPolicies.of(policy))
            .hostEnvironment(Map.of())
            .workingDirectory(staging)
            .backend(backend())
            .discoverBackends(false);
    // Without a gateway of its own the kernel finds the installed one, or refuses a filtered run
    // (NETWORK_FILTER_UNAVAILABLE, thrown from execute) before launching anything.
    egressGateway.ifPresent(kernelBuilder::egressGateway);
    CommandKernel kernel = kernelBuilder.build();
    ExecutionResult result =
        kernel.execute(
            ExecutionRequest.argv(argv)
                .repository(baseDirectory)
                .workingDirectory(staging)
                .stdin(hostRequest.encode())
                .backend(backendId)
                .build());
    if (result.status() == ExecutionStatus.LAUNCH_FAILED && result.failureMessage() != null
        && result.failureMessage().startsWith(NetworkFilterUnavailableException.CODE + ":")) {
      // The kernel could not open the run's egress proxy: a refusal of the network grant, as when none is installed.
      throw new NetworkFilterUnavailableException(
          "the granted network.connect scopes need the egress proxy, which could not start (" + result.failureMessage() + "); nothing ran");
    }
    if (result.status() == ExecutionStatus.DENIED || result.status() == ExecutionStatus.LAUNCH_FAILED) {
      // Nothing ran: the executor's own command was refused or the sandbox could not start it. As
      // the Executor contract says, that is an executor that could not run the capability (a
      // refusal with nothing granted), not a run of the capability that failed.
      throw new CapabilityException(
          CapabilityCodes.ISOLATION_UNAVAILABLE,
          "backend '" + backendId + "' did not start the capability host (" + result.status()
              + (result.status() == ExecutionStatus.DENIED ? " " + result.decision().code() + ": " + result.decision().message() : "")
              + (result.failureMessage() == null ? "" : ": " + result.failureMessage()) + "); nothing ran");
    }
    Optional<Attestation> attestation = Optional.of(result.attestation());
    List<Effect> used = new ArrayList<>(usedWrites(request.granted(), result.attestation().changes()));
    used.addAll(EgressEvidence.used(request.granted(), result.attestation().egress()));
    List<EffectViolation> violations = EgressEvidence.violations(result.attestation().egress());
    if (!result.succeeded()) {
      String why =
          "the capability host did not complete: " + result.status()
              + result.exitCode().stream().mapToObj(code -> " (exit " + code + ")").findFirst().orElse("")
              + (result.failureMessage() == null ? "" : ": " + result.failureMessage())
              + tail(result.stderr().text());
      return new CapabilityResult(false, Optional.empty(), Optional.of(why), isolated(), attestation, List.of(), used, violations);
    }
    try {
      return fromResponse(result.stdout().text(), attestation, used, violations);
    } catch (IOException | RuntimeException e) {
      // The child is untrusted: a response it garbled (or cut short by exiting) is a failed run.
      return new CapabilityResult(
          false, Optional.empty(), Optional.of("the capability host wrote no valid response: " + e.getMessage()), isolated(), attestation, List.of(),
          used, violations);
    }
  }

  /**
   * The granted writes the kernel's audit saw used: a {@code filesystem.write} grant counts as used
   * when a file under it was created, modified or deleted. This is the host's observation, not the
   * child's report; reads leave no trace the host can see, so they are never listed (connections
   * are the egress proxy's to report: {@link EgressEvidence}).
   */
  private List<Effect> usedWrites(List<Effect> granted, List<Attestation.Change> changes) {
    List<Path> changed = changes.stream().map(change -> baseDirectory.resolve(change.path()).normalize()).toList();
    return granted.stream()
        .filter(effect -> effect.kind() == EffectKind.FILESYSTEM_WRITE)
        .filter(effect -> changed.stream().anyMatch(path -> path.startsWith(underBase(effect))))
        .toList();
  }

  private CapabilityResult fromResponse(
      String stdout, Optional<Attestation> attestation, List<Effect> used, List<EffectViolation> violations) throws IOException {
    JsonNode response = JSON.readTree(stdout);
    if (response == null || !response.isObject()) {
      throw new IOException("the response is not a JSON object");
    }
    List<HookOutcome> hooks = new ArrayList<>();
    for (JsonNode hook : response.path("hooks")) {
      hooks.add(
          new HookOutcome(
              hook.path("hook").asText(), HookOutcome.Status.valueOf(hook.path("status").asText()), hook.path("detail").asText()));
    }
    Optional<String> output = textOrEmpty(response.get("output"));
    Optional<String> failure = textOrEmpty(response.get("failure"));
    return new CapabilityResult(failure.isEmpty(), output, failure, isolated(), attestation, hooks, used, violations);
  }

  private static Optional<String> textOrEmpty(JsonNode node) {
    return node == null || node.isNull() ? Optional.empty() : Optional.of(node.asText());
  }

  private static String tail(String stderr) {
    String trimmed = stderr.strip();
    if (trimmed.isEmpty()) {
      return "";
    }
    return "; log: " + (trimmed.length() > 2000 ? trimmed.substring(trimmed.length() - 2000) : trimmed);
  }

  private record Grants(List<Path> readable, List<Path> writable, List<String> writeScopes, NetworkGrant network, boolean startsPrograms) {}

  /**
   * Refuses, before anything is staged or launched, granted {@code network.connect} scopes on a
   * backend that cannot confine the run to the egress proxy: never answered with the host network.
   */
  private void requireFilteredEgress(NetworkGrant network) {
    if (!backend().capabilities().contains(IsolationCapability.FILTERED_EGRESS)) {
      throw new NetworkFilterUnavailableException(
          "the capability was granted network.connect " + network.destinations() + ", and backend '" + backendId
              + "' cannot confine a run to those destinations (it does not supply FILTERED_EGRESS); it is never given the host network instead");
    }
  }

  /**
   * Refuses, before anything is staged or launched, a run whose child could not forbid itself to
   * start programs: the child would refuse the request anyway, and this says why, as a refusal.
   */
  private static void requireProgramStartsCanBeForbidden() {
    SeccompFilter.Availability seccomp = SeccompFilter.availability();
    if (!seccomp.available()) {
      throw new CapabilityException(
          CapabilityCodes.ISOLATION_UNAVAILABLE,
          "the capability was not granted process.spawn, and the child JVM cannot be kept from starting programs here: "
              + seccomp.reason());
    }
  }

  private Grants grants(List<Effect> granted) {
    List<Path> readable = new ArrayList<>();
    List<Path> writable = new ArrayList<>();
    List<String> writeScopes = new ArrayList<>();
    boolean startsPrograms = false;
    for (Effect effect : granted) {
      if (!CONFINABLE.contains(effect.kind())) {
        throw new CapabilityException(
            CapabilityCodes.ISOLATION_UNAVAILABLE, "the child-JVM executor cannot confine " + effect + "; it runs only filesystem, network, process.spawn and code.dynamic grants");
      }
      switch (effect.kind()) {
        case FILESYSTEM_READ -> readable.add(underBase(effect));
        case FILESYSTEM_WRITE -> {
          Path path = underBase(effect);
          writable.add(path);
          String relative = baseDirectory.relativize(path).toString();
          writeScopes.add(relative);
          writeScopes.add(relative + "/**");
        }
        case PROCESS_SPAWN -> startsPrograms = true;
        default -> {
          // network.connect: the egress proxy's (NetworkGrant); code.dynamic: nothing to open.
        }
      }
    }
    return new Grants(readable, writable, writeScopes, NetworkGrant.of(granted, egressPrivateAddressNames), startsPrograms);
  }

  /**
   * Refuses, before anything is staged or launched, a write grant the sandbox could not use: a
   * path with no directory, or a directory the backend says its uid cannot write. The executor
   * never creates or opens up a granted directory itself: which directory, owned by whom, is the
   * operator's decision, and a missing one is as likely a mistyped scope.
   */
  private void requireWritableDirectory(Effect effect, Path path) {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      throw new CapabilityException(
          CapabilityCodes.GRANT_PATH_MISSING,
          "granted " + effect + " resolves to " + path + ", which does not exist; create the directory (mkdir " + path
              + ") and let the sandbox's uid write in it, then run again. The executor never creates granted directories");
    } catch (IOException e) {
      throw new CapabilityException(
          CapabilityCodes.GRANT_PATH_MISSING, "granted " + effect + " resolves to " + path + ", which cannot be inspected: " + e.getMessage(), e);
    }
    if (!attributes.isDirectory()) {
      throw new CapabilityException(
          CapabilityCodes.GRANT_PATH_MISSING,
          "granted " + effect + " resolves to " + path + ", which is " + (attributes.isSymbolicLink() ? "a symbolic link" : "not a directory")
              + "; a write grant needs a real directory there");
    }
    backend().cannotWriteIn(path).ifPresent(problem -> {
      throw new CapabilityException(
          CapabilityCodes.GRANT_PATH_NOT_WRITABLE,
          "granted " + effect + " cannot be used: " + problem + " (chmod or chown " + path + ", then run again)");
    });
  }

  private Path underBase(Effect effect) {
    Path path = baseDirectory.resolve(effect.scope()).normalize();
    if (!path.startsWith(baseDirectory) || path.equals(baseDirectory)) {
      throw new CapabilityException(
          CapabilityCodes.ISOLATION_UNAVAILABLE,
          "granted " + effect + " resolves to " + path + ", which is not below the base directory " + baseDirectory
              + " the sandbox shows");
    }
    return path;
  }

  private static void deleteQuietly(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException | UncheckedIOException e) {
      org.slf4j.LoggerFactory.getLogger(ChildJvmExecutor.class).warn("cannot remove staging directory {}", root, e);
    }
  }
}
