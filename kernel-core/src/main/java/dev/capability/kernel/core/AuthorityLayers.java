package dev.capability.kernel.core;

import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.core.internal.authority.EffectiveAuthority;
import dev.capability.kernel.core.internal.authority.LayerFiles;
import dev.capability.kernel.core.internal.authority.LayerJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Loads the layers that narrow the operator's policy: a project contract, the active phase and
 * the active correction radius, each a small JSON file described in {@code docs/authority.md}.
 * Every failure is an {@link dev.capability.kernel.api.authority.AuthorityException} with a
 * stable code; a layer that cannot be read is never skipped. Whether a layer stays inside the
 * operator's policy is checked when the layers are combined with it.
 */
public final class AuthorityLayers {
  private AuthorityLayers() {}

  /**
   * The layers in the files given, in the order contract, phase, correction; a null file is a
   * layer not given.
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException naming the first file that failed
   */
  public static List<AuthorityLayer> load(@Nullable Path contract, @Nullable Path phase, @Nullable Path correction) {
    List<AuthorityLayer> layers = new ArrayList<>();
    if (contract != null) {
      layers.add(load(Kind.PROJECT_CONTRACT, contract));
    }
    if (phase != null) {
      layers.add(load(Kind.PHASE, phase));
    }
    if (correction != null) {
      layers.add(load(Kind.CORRECTION, correction));
    }
    return List.copyOf(layers);
  }

  /**
   * The layer of {@code kind} in {@code file}: a path without {@code .}, {@code ..}, a leading
   * {@code ~} or a symbolic link, to a regular UTF-8 file of at most 256 KiB.
   *
   * @param kind {@code PROJECT_CONTRACT}, {@code PHASE} or {@code CORRECTION}; the file's
   *     {@code kind} member must say the same
   */
  public static AuthorityLayer load(Kind kind, Path file) {
    return LayerFiles.read(kind, file);
  }

  /**
   * The layer of {@code kind} in {@code json}, with no file checks.
   *
   * @param source what to call the layer in decisions and messages
   */
  public static AuthorityLayer parse(Kind kind, String json, String source) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(json, "json");
    Objects.requireNonNull(source, "source");
    return LayerJson.read(kind, json, source);
  }

  /**
   * Refuses {@code inner} when it allows anything {@code outer} does not, as combining the layers
   * refuses a layer that widens the operator's policy: an executable, a network mode, project
   * writes, or a path (the message names the shortest path one of {@code inner}'s write scopes
   * matches and none of {@code outer}'s does). A constraint {@code outer} leaves out is not
   * compared. A work plan uses this to hold a phase inside the project contract.
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException {@code LAYER_WIDENS_OPERATOR}
   *     or {@code SCOPE_PATTERN_INVALID}
   */
  public static void requireWithin(AuthorityLayer outer, AuthorityLayer inner) {
    EffectiveAuthority.refuseWidening(outer, inner);
  }

  /**
   * Refuses {@code layers} when they cannot be combined with {@code policy} for the repository at
   * {@code repository}: one widens the policy, a scope is malformed or goes through a symbolic
   * link, a layer kind repeats, or one of {@code protectedPaths} (entries added to the policy's, as
   * a project contract adds them) is malformed. Launches and checks no command.
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException as combining the layers for a command would
   */
  public static void requireWithin(LoadedPolicy policy, List<AuthorityLayer> layers, List<String> protectedPaths, Path repository) {
    EffectiveAuthority.of(withProtectedPaths(policy, protectedPaths), layers, repository);
  }

  /** The operator's policy with {@code protectedPaths} added to its protected paths. */
  static dev.capability.kernel.api.policy.ExecutionPolicy withProtectedPaths(LoadedPolicy policy, List<String> protectedPaths) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(protectedPaths, "protectedPaths");
    if (protectedPaths.isEmpty()) {
      return policy.policy();
    }
    List<String> all = new ArrayList<>(policy.policy().protectedPaths());
    all.addAll(protectedPaths);
    return policy.policy().toBuilder().protectedPaths(all).build();
  }
}
