package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.EXECUTABLE_NOT_ALLOWED;
import static dev.capability.kernel.api.authority.AuthorityCodes.LAYER_INVALID;
import static dev.capability.kernel.api.authority.AuthorityCodes.NETWORK_NOT_ENFORCEABLE;
import static dev.capability.kernel.api.authority.AuthorityCodes.PATH_INVALID;
import static dev.capability.kernel.api.authority.AuthorityCodes.PROJECT_READ_ONLY;
import static dev.capability.kernel.api.authority.AuthorityCodes.WRITE_OUTSIDE_SCOPE;
import static dev.capability.kernel.api.authority.AuthorityCodes.WRITE_PROTECTED;
import static dev.capability.kernel.api.authority.AuthorityCodes.WRITE_THROUGH_LINK;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.PolicyCodes;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The authority a command actually has: the operator's policy intersected with the project
 * contract, the active phase, the active correction radius and, once one is selected, what the
 * backend can enforce. Every question is answered by asking every layer, and a refusal names the
 * layer that refused.
 *
 * <ul>
 *   <li>An executable rule is allowed when every layer that lists executables lists it.
 *   <li>The network is the widest mode every layer allows; when there is none (the operator
 *       allows only {@code none} and the backend cannot take the network away), nothing runs.
 *   <li>A path is writable when it is not protected, no layer makes the repository read-only, and
 *       every layer with write scopes has a pattern that matches it.
 * </ul>
 *
 * <p>No layer below the operator may allow more than the operator: {@link #of} refuses, with
 * {@code LAYER_WIDENS_OPERATOR}, a layer that lists an executable, a network mode, scoped writes
 * or a path the operator does not allow. The intersection would hold the command to the operator
 * anyway; the refusal says that the layer is wrong instead of silently ignoring part of it.
 * Immutable and thread-safe.
 */
public final class EffectiveAuthority {
  /** The code of a repository that is not a directory, as the pipeline uses it. */
  static final String REPOSITORY_INVALID = "REPOSITORY_INVALID";

  private final List<AuthorityLayer> layers;
  private final List<Optional<WriteScope>> scopes;
  private final ProtectedPaths protectedPaths;
  private final Path repository;

  private EffectiveAuthority(List<AuthorityLayer> layers, List<Optional<WriteScope>> scopes, ProtectedPaths protectedPaths, Path repository) {
    this.layers = List.copyOf(layers);
    this.scopes = List.copyOf(scopes);
    this.protectedPaths = protectedPaths;
    this.repository = repository;
  }

  /**
   * The authority of {@code operator} narrowed by {@code layers}, for the repository (or
   * workspace) at {@code repository}.
   *
   * @param operator the operator's policy: the operator layer, and the protected paths added to
   *     {@link ProtectedPaths#ALWAYS}
   * @param layers at most one each of {@code PROJECT_CONTRACT}, {@code PHASE}, {@code CORRECTION}
   *     and {@code BACKEND}, in any order
   * @param repository the directory write scopes and protected paths are relative to
   * @throws AuthorityException {@code LAYER_INVALID} for a repeated or operator layer,
   *     {@code LAYER_WIDENS_OPERATOR}, {@code SCOPE_PATTERN_INVALID}, {@code SCOPE_THROUGH_SYMLINK}
   *     or {@code GIT_DIRECTORY_INVALID}
   */
  public static EffectiveAuthority of(ExecutionPolicy operator, List<AuthorityLayer> layers, Path repository) {
    Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(layers, "layers");
    Path root = realDirectory(Objects.requireNonNull(repository, "repository"));
    List<AuthorityLayer> ordered = new ArrayList<>();
    ordered.add(AuthorityLayer.operator(operator));
    Set<Kind> seen = EnumSet.noneOf(Kind.class);
    for (AuthorityLayer layer : layers) {
      Objects.requireNonNull(layer, "layer");
      if (layer.kind() == Kind.OPERATOR) {
        throw new AuthorityException(LAYER_INVALID, "the operator layer comes from the policy; " + layer.source() + " cannot be one");
      }
      if (!seen.add(layer.kind())) {
        throw new AuthorityException(LAYER_INVALID, "there is more than one " + layer.kind().layerName() + " layer");
      }
      ordered.add(layer);
    }
    ordered.sort(Comparator.comparing(AuthorityLayer::kind));
    List<Optional<WriteScope>> scopes = new ArrayList<>();
    for (AuthorityLayer layer : ordered) {
      scopes.add(layer.writeScopes().map(patterns -> compile(layer, patterns)));
    }
    for (int i = 1; i < ordered.size(); i++) {
      LayerChecks.refuseWidening(ordered.get(0), scopes.get(0), ordered.get(i), scopes.get(i));
    }
    for (int i = 0; i < ordered.size(); i++) {
      int index = i;
      scopes.get(i).ifPresent(scope -> LayerChecks.refuseSymlinkedScopes(ordered.get(index), scope, root));
    }
    return new EffectiveAuthority(ordered, scopes, ProtectedPaths.of(root, operator.protectedPaths()), root);
  }

  /**
   * This authority narrowed by what backend {@code id} with {@code capabilities} can enforce.
   *
   * @throws AuthorityException {@code LAYER_INVALID} when this authority has a backend layer already
   */
  public EffectiveAuthority withBackend(String id, Set<IsolationCapability> capabilities) {
    AuthorityLayer backend = AuthorityLayer.backend(id, capabilities);
    if (layers.stream().anyMatch(layer -> layer.kind() == Kind.BACKEND)) {
      throw new AuthorityException(LAYER_INVALID, "there is more than one backend layer");
    }
    List<AuthorityLayer> more = new ArrayList<>(layers);
    more.add(backend);
    List<Optional<WriteScope>> moreScopes = new ArrayList<>(scopes);
    moreScopes.add(Optional.empty());
    return new EffectiveAuthority(more, moreScopes, protectedPaths, repository);
  }

  /** The layers, operator first, then contract, phase, correction and backend as present. */
  public List<AuthorityLayer> layers() {
    return layers;
  }

  /** The real path of the repository the paths are relative to. */
  public Path repository() {
    return repository;
  }

  public ProtectedPaths protectedPaths() {
    return protectedPaths;
  }

  /** Whether every layer allows the operator's executable rule {@code ruleId}. */
  public Decision executable(String ruleId) {
    Objects.requireNonNull(ruleId, "ruleId");
    AuthorityLayer narrowest = layers.get(0);
    for (AuthorityLayer layer : layers) {
      if (layer.executables().isPresent()) {
        if (!layer.executables().get().contains(ruleId)) {
          return Decision.deny(EXECUTABLE_NOT_ALLOWED, layer.kind().layerName(), "executables",
              LayerChecks.describe(layer) + " does not allow the executable rule " + Printable.quote(ruleId)
                  + "; it allows " + layer.executables().get());
        }
        narrowest = layer;
      }
    }
    return Decision.allow(narrowest.kind().layerName(), "executables." + ruleId);
  }

  /**
   * Whether a command the operator's rule {@code ruleId} allowed may run with its write targets:
   * every layer must allow the rule ({@link #executable}), and every target must be writable as
   * {@link #writeTarget} decides. The first refusal wins.
   *
   * @param workingDirectory the real directory the command runs in
   */
  public Decision authorize(String ruleId, List<WriteTarget> writeTargets, Path workingDirectory) {
    Decision decision = executable(ruleId);
    if (!decision.allowed()) {
      return decision;
    }
    for (WriteTarget target : writeTargets) {
      Decision written = writeTarget(target.argIndex(), workingDirectory, target.path());
      if (!written.allowed()) {
        return written;
      }
    }
    return decision;
  }

  /** Whether some network mode is allowed by every layer; the allowing decision's rule names it. */
  public Decision network() {
    Set<NetworkMode> modes = EnumSet.allOf(NetworkMode.class);
    for (AuthorityLayer layer : layers) {
      if (layer.network().isEmpty()) {
        continue;
      }
      Set<NetworkMode> before = EnumSet.copyOf(modes);
      modes.retainAll(layer.network().get());
      if (modes.isEmpty()) {
        return Decision.deny(NETWORK_NOT_ENFORCEABLE, layer.kind().layerName(), "network",
            LayerChecks.describe(layer) + " allows only network " + LayerChecks.names(layer.network().get()) + ", and the layers above allow only "
                + LayerChecks.names(before));
      }
    }
    return Decision.allow(layers.get(layers.size() - 1).kind().layerName(), "network." + LayerChecks.name(widest(modes)));
  }

  /** The widest network mode every layer allows; empty when {@link #network()} refuses. */
  public Optional<NetworkMode> networkMode() {
    Set<NetworkMode> modes = EnumSet.allOf(NetworkMode.class);
    layers.forEach(layer -> layer.network().ifPresent(modes::retainAll));
    return modes.isEmpty() ? Optional.empty() : Optional.of(widest(modes));
  }

  /** {@code SCOPED} when every layer allows scoped writes, otherwise {@code READ_ONLY}. */
  public ProjectWriteMode projectWrites() {
    return layers.stream().anyMatch(LayerChecks::isReadOnly) ? ProjectWriteMode.READ_ONLY : ProjectWriteMode.SCOPED;
  }

  /**
   * Whether a command may write {@code path}, a repository-relative path, judged by the path
   * alone: valid, not protected, and inside every layer's write scope.
   */
  public Decision writable(String path) {
    Objects.requireNonNull(path, "path");
    Optional<String> problem = RepositoryPaths.problem(path);
    if (problem.isPresent()) {
      return Decision.deny(PATH_INVALID, PolicyCodes.LAYER_BUILTIN, "path", "path " + Printable.quote(path) + " " + problem.get());
    }
    Optional<ProtectedPaths.Protection> protection = protectedPaths.protection(path);
    if (protection.isPresent()) {
      return protectedDenial(path, protection.get());
    }
    Decision allowed = null;
    for (int i = 0; i < layers.size(); i++) {
      AuthorityLayer layer = layers.get(i);
      if (LayerChecks.isReadOnly(layer)) {
        return Decision.deny(PROJECT_READ_ONLY, layer.kind().layerName(), "projectWrites",
            LayerChecks.describe(layer) + " makes the repository read-only; " + Printable.quote(path) + " may not be written");
      }
      if (scopes.get(i).isPresent()) {
        WriteScope scope = scopes.get(i).get();
        Optional<GlobPattern> match = scope.match(path);
        if (match.isEmpty()) {
          return Decision.deny(WRITE_OUTSIDE_SCOPE, layer.kind().layerName(), "writeScopes",
              Printable.quote(path) + " lies outside the write scopes of " + LayerChecks.describe(layer) + ": " + scope);
        }
        allowed = Decision.allow(layer.kind().layerName(), "writeScopes[" + scope.patterns().indexOf(match.get()) + "]");
      }
    }
    if (allowed == null) {
      // Only a hand-built policy could get here: a validated one with scoped writes has scopes.
      return Decision.deny(WRITE_OUTSIDE_SCOPE, PolicyCodes.LAYER_OPERATOR, "writeScopes", "no layer has a write scope");
    }
    return allowed;
  }

  /**
   * Whether a command may write the path it names in argv[{@code argIndex}], judged before launch:
   * {@link #writable} for the path relative to the repository, and then against the file system
   * as it is now: the path may not go through a symbolic link, may not be a file with other hard
   * links, and may not hold a protected path below it.
   *
   * @param workingDirectory the real directory the command runs in, inside the repository
   * @param operand the path as the command gets it, relative to {@code workingDirectory}
   */
  public Decision writeTarget(int argIndex, Path workingDirectory, String operand) {
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(operand, "operand");
    String where = "write target " + Printable.quote(operand) + " (argv[" + argIndex + "])";
    if (!workingDirectory.startsWith(repository)) {
      return Decision.deny(PATH_INVALID, PolicyCodes.LAYER_BUILTIN, "writeTarget", argIndex,
          where + ": the working directory " + workingDirectory + " lies outside the repository " + repository);
    }
    Optional<List<String>> segments = WriteTargets.segments(repository.relativize(workingDirectory), operand);
    if (segments.isEmpty()) {
      return Decision.deny(PATH_INVALID, PolicyCodes.LAYER_BUILTIN, "writeTarget", argIndex,
          where + " must be a relative path without .., ~ or NUL");
    }
    if (segments.get().isEmpty()) {
      return Decision.deny(WRITE_PROTECTED, PolicyCodes.LAYER_BUILTIN, "protectedPaths", argIndex,
          where + " is the repository root, which holds .git");
    }
    String path = String.join("/", segments.get());
    Decision decision = writable(path);
    if (!decision.allowed()) {
      return withArgument(decision, argIndex, where);
    }
    Optional<ProtectedPaths.Protection> below = protectedPaths.heldBelow(path);
    if (below.isPresent()) {
      ProtectedPaths.Protection protection = below.get();
      return Decision.deny(WRITE_PROTECTED, protectionLayer(protection), "protectedPaths", argIndex,
          where + " holds the protected path " + Printable.quote(protection.matched()) + " (protected by "
              + Printable.quote(protection.entry()) + ")");
    }
    Optional<String> link = WriteTargets.linkProblem(repository, segments.get());
    if (link.isPresent()) {
      return Decision.deny(WRITE_THROUGH_LINK, PolicyCodes.LAYER_BUILTIN, "writeTarget", argIndex, where + " " + link.get());
    }
    return Decision.allow(decision.layer(), decision.rule());
  }

  /**
   * Refuses {@code inner} when it allows anything {@code outer} does not: an executable, a network
   * mode, project writes, or a path one of its write scopes matches and none of {@code outer}'s
   * does (found exactly, as for {@link #of}). Constraints {@code outer} leaves out are not compared.
   *
   * @throws AuthorityException {@code LAYER_WIDENS_OPERATOR} naming the counterexample, or
   *     {@code SCOPE_PATTERN_INVALID}
   */
  public static void refuseWidening(AuthorityLayer outer, AuthorityLayer inner) {
    LayerChecks.refuseWidening(Objects.requireNonNull(outer, "outer"), Objects.requireNonNull(inner, "inner"));
  }

  /** The violations among {@code changedPaths}; see {@link WriteAudit}. */
  public List<WriteViolation> violations(List<String> changedPaths) {
    return WriteAudit.violations(this, changedPaths);
  }

  /**
   * The directories (or files) a backend may make writable: the deepest literal starts of the
   * write scopes that every layer's scope shares. Empty when the repository is read-only. A root
   * may hold protected paths (the repository root holds {@code .git}); a backend that mounts roots
   * writable must keep those read-only, and the audit flags every write to them.
   */
  public List<Path> writableRoots() {
    if (projectWrites() == ProjectWriteMode.READ_ONLY) {
      return List.of();
    }
    List<String> roots = null;
    for (Optional<WriteScope> scope : scopes) {
      if (scope.isPresent()) {
        roots = roots == null ? scope.get().roots() : intersectRoots(roots, scope.get().roots());
      }
    }
    if (roots == null) {
      return List.of();
    }
    List<String> all = List.copyOf(new TreeSet<>(roots));
    return all.stream()
        .filter(root -> all.stream().noneMatch(other -> other.isEmpty() ? !root.isEmpty() : RepositoryPaths.isStrictAncestor(other, root)))
        .map(root -> root.isEmpty() ? repository : repository.resolve(root))
        .toList();
  }

  private static List<String> intersectRoots(List<String> upper, List<String> lower) {
    List<String> out = new ArrayList<>();
    for (String a : upper) {
      for (String b : lower) {
        if (a.isEmpty() || a.equals(b) || RepositoryPaths.isStrictAncestor(a, b)) {
          out.add(b);
        } else if (b.isEmpty() || RepositoryPaths.isStrictAncestor(b, a)) {
          out.add(a);
        }
      }
    }
    return out;
  }

  private static WriteScope compile(AuthorityLayer layer, List<String> patterns) {
    try {
      return WriteScope.of(patterns);
    } catch (AuthorityException e) {
      throw new AuthorityException(e.code(), "in the write scopes of " + LayerChecks.describe(layer) + ": " + e.getMessage(), e);
    }
  }

  private static Decision protectedDenial(String path, ProtectedPaths.Protection protection) {
    String message = Printable.quote(path) + " is protected by " + Printable.quote(protection.entry())
        + (protection.matched().equals(path) ? "" : " (through " + Printable.quote(protection.matched()) + ")")
        + (protection.builtin() ? ", which is always protected" : ", a protected path of the operator's policy");
    return Decision.deny(WRITE_PROTECTED, protectionLayer(protection), "protectedPaths", message);
  }

  private static String protectionLayer(ProtectedPaths.Protection protection) {
    return protection.builtin() ? PolicyCodes.LAYER_BUILTIN : PolicyCodes.LAYER_OPERATOR;
  }

  private static Decision withArgument(Decision denial, int argIndex, String where) {
    return Decision.deny(denial.code(), denial.layer(), denial.rule(), argIndex, where + ": " + denial.message());
  }

  private static NetworkMode widest(Set<NetworkMode> modes) {
    return modes.stream().max(Comparator.naturalOrder()).orElseThrow();
  }

  private static Path realDirectory(Path repository) {
    try {
      Path real = repository.toRealPath();
      if (!Files.isDirectory(real)) {
        throw new CapabilityException(REPOSITORY_INVALID, "the repository " + repository + " is not a directory");
      }
      return real;
    } catch (IOException e) {
      throw new CapabilityException(REPOSITORY_INVALID, "the repository " + repository + " cannot be resolved: " + e.getMessage(), e);
    }
  }
}
