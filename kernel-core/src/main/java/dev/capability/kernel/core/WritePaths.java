package dev.capability.kernel.core;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.core.internal.authority.EffectiveAuthority;
import dev.capability.kernel.core.internal.authority.GlobPattern;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Questions about repository paths that a layer above the kernel asks before any command runs:
 * which paths the effective authority would refuse to have written, and which paths a write-scope
 * pattern matches. The answers are the kernel's own: the same layers, glob syntax and hidden-name
 * rules that decide a command and audit its writes.
 */
public final class WritePaths {
  private WritePaths() {}

  /**
   * The paths among {@code paths} that the operator's {@code policy} narrowed by {@code layers}
   * (and with {@code protectedPaths} added to the policy's) does not allow to be written, each with
   * the denial: its code, layer, rule and message. Sorted by path.
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException when the layers cannot be combined with the policy
   */
  public static Map<String, Decision> refused(
      LoadedPolicy policy, List<AuthorityLayer> layers, List<String> protectedPaths, Path repository, List<String> paths) {
    Objects.requireNonNull(paths, "paths");
    EffectiveAuthority authority = EffectiveAuthority.of(AuthorityLayers.withProtectedPaths(policy, protectedPaths), layers, repository);
    Map<String, Decision> refused = new TreeMap<>();
    authority.violations(List.copyOf(paths)).forEach(v -> refused.put(v.path(), v.decision()));
    return refused;
  }

  /**
   * Whether the write-scope pattern {@code pattern} matches the repository-relative {@code path},
   * as a layer's write scope matches it (wildcards skip hidden names).
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException {@code SCOPE_PATTERN_INVALID}
   */
  public static boolean matches(String pattern, String path) {
    return GlobPattern.writeScope(pattern).matches(Objects.requireNonNull(path, "path"));
  }

  /**
   * Refuses {@code pattern} when it is not a valid write-scope pattern.
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException {@code SCOPE_PATTERN_INVALID}, naming what is wrong
   */
  public static void requireValidPattern(String pattern) {
    GlobPattern.writeScope(pattern);
  }
}
