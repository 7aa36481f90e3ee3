package dev.capability.kernel.core;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.core.internal.audit.ContentManifest;
import dev.capability.kernel.core.internal.audit.SecretScanReport;
import dev.capability.kernel.core.internal.audit.SecretScanner;
import dev.capability.kernel.core.internal.audit.WorkingTreeHash;
import dev.capability.kernel.core.internal.authority.EffectiveAuthority;
import dev.capability.kernel.core.internal.authority.WriteViolation;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The repository audit over a span longer than one command: what a working tree holds now,
 * what changed since a manifest taken earlier, and which of those changes the layers do not
 * allow or carry secrets. Each command's own audit sees only what that command changed; a work
 * plan's phase uses this to hold everything changed since the phase started, by any means, to
 * the phase's authority.
 */
public final class WorkingTrees {
  private WorkingTrees() {}

  /**
   * The Git tree id of the working tree at {@code repository}, as attestations record it
   * ({@code inputTreeHash}): what {@code git add -A && git write-tree} would print, computed
   * without writing the repository.
   *
   * @throws dev.capability.kernel.api.CapabilityException {@code REPOSITORY_INVALID} or {@code SNAPSHOT_FAILED}
   */
  public static String treeHash(Path repository) {
    return WorkingTreeHash.of(repository);
  }

  /**
   * What each path of the working tree holds, by content: {@code dir}, {@code link:<target>} or
   * {@code file:<octal mode>:<sha256>}, sorted by repository-relative path. Every entry is listed,
   * ignored by Git or not, except {@code .git} at any depth and {@code .capability} at the root.
   * Holds digests only, never content.
   *
   * @throws dev.capability.kernel.api.CapabilityException {@code REPOSITORY_INVALID} or {@code SNAPSHOT_FAILED}
   */
  public static Map<String, String> manifest(Path repository) {
    return Collections.unmodifiableMap(ContentManifest.of(repository));
  }

  /**
   * What changed in the working tree at {@code repository} since {@code since} (a
   * {@link #manifest}), which of those paths the operator's {@code policy} narrowed by
   * {@code layers} does not allow to be written (outside a scope, protected by the policy or by
   * {@code protectedPaths}, read-only), and the
   * secrets in the files that have new content, scanned as a command's audit scans them.
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException when the layers cannot be combined with the policy
   * @throws dev.capability.kernel.api.CapabilityException {@code REPOSITORY_INVALID} or {@code SNAPSHOT_FAILED}
   */
  public static ChangeAudit audit(
      LoadedPolicy policy, List<AuthorityLayer> layers, List<String> protectedPaths, Path repository, Map<String, String> since) {
    Objects.requireNonNull(since, "since");
    EffectiveAuthority authority = EffectiveAuthority.of(AuthorityLayers.withProtectedPaths(policy, protectedPaths), layers, repository);
    Map<String, String> now = ContentManifest.of(repository);
    List<String> changed = ContentManifest.changedPaths(since, now);
    List<WriteViolation> refused = authority.violations(changed);
    Set<String> refusedPaths = new HashSet<>();
    refused.forEach(v -> refusedPaths.add(v.path()));
    List<String> allowed = changed.stream().filter(path -> !refusedPaths.contains(path)).toList();
    List<Attestation.Violation> violations = refused.stream()
        .filter(v -> !isCreatedDirectoryOnTheWay(v.path(), since, now, allowed))
        .map(v -> new Attestation.Violation(v.path(), kind(since.get(v.path()), now.get(v.path())),
            v.decision().layer(), v.decision().rule(), v.decision().message()))
        .toList();
    List<String> newContent = changed.stream().filter(path -> ContentManifest.isFile(now.get(path))).toList();
    SecretScanReport report = new SecretScanner().scanFiles(repository, newContent);
    Attestation.SecretScan secrets = new Attestation.SecretScan(
        report.findings().stream().map(f -> new Attestation.SecretFinding(f.rule(), f.source(), f.line())).toList(),
        report.gaps().stream().map(g -> new Attestation.ScanGap(g.source(), g.reason().name())).toList());
    return new ChangeAudit(now, changed, violations, secrets);
  }

  /**
   * The paths among {@code paths} (repository-relative) that the operator's {@code policy} narrowed
   * by {@code layers} does not allow to be written, each with the decision that refuses it (its
   * layer and rule): the check {@link #audit} applies to a change, asked before the change is made.
   *
   * @throws dev.capability.kernel.api.authority.AuthorityException when the layers cannot be combined with the policy
   */
  public static Map<String, Decision> refusedWrites(
      LoadedPolicy policy, List<AuthorityLayer> layers, List<String> protectedPaths, Path repository, List<String> paths) {
    EffectiveAuthority authority = EffectiveAuthority.of(AuthorityLayers.withProtectedPaths(policy, protectedPaths), layers, repository);
    Map<String, Decision> refused = new TreeMap<>();
    authority.violations(List.copyOf(paths)).forEach(v -> refused.put(v.path(), v.decision()));
    return Collections.unmodifiableMap(refused);
  }

  /**
   * A directory created since the manifest, holding a change the authority allows, was made to
   * reach that change ({@code src} for {@code src/main/Calc.java} under {@code src/main/**}), as
   * the kernel creates the directories above a writable root; it is not a violation of its own.
   * An empty new directory outside the scopes still is.
   */
  private static boolean isCreatedDirectoryOnTheWay(String path, Map<String, String> before, Map<String, String> after, List<String> allowed) {
    if (before.containsKey(path) || !"dir".equals(after.get(path))) {
      return false;
    }
    String prefix = path + "/";
    return allowed.stream().anyMatch(p -> p.startsWith(prefix));
  }

  private static String kind(String before, String after) {
    if (before == null) {
      return "CREATED";
    }
    return after == null ? "DELETED" : "MODIFIED";
  }

  /**
   * What {@link #audit} found.
   *
   * @param manifest the working tree's manifest now
   * @param changedPaths every path whose entry differs from the earlier manifest, sorted
   * @param violations the changed paths the authority does not allow to be written
   * @param secrets the secret scan of the changed files with new content
   */
  public record ChangeAudit(
      Map<String, String> manifest, List<String> changedPaths, List<Attestation.Violation> violations, Attestation.SecretScan secrets) {
    public ChangeAudit {
      manifest = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(manifest, "manifest")));
      changedPaths = List.copyOf(changedPaths);
      violations = List.copyOf(violations);
      Objects.requireNonNull(secrets, "secrets");
    }
  }
}
