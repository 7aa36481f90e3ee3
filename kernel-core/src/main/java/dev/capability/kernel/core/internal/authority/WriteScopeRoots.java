package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.SCOPE_ROOT_NOT_CREATED;
import static dev.capability.kernel.api.authority.AuthorityCodes.SCOPE_THROUGH_SYMLINK;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.policy.PolicyCodes;
import dev.capability.kernel.core.internal.ProcessUid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Makes an authority's {@linkplain EffectiveAuthority#writableRoots() writable roots} exist before
 * launch. A scope such as {@code target/**} names a directory a fresh clone does not have yet, and
 * a backend that mounts roots cannot mount one that is missing; so the kernel creates it:
 *
 * <ul>
 *   <li>inside the repository only, one component at a time, each existing component read without
 *       following links: a symbolic link anywhere on the way refuses ({@code SCOPE_THROUGH_SYMLINK})
 *       and nothing is created through it; something else that is not a directory on the way, a
 *       protected component, or a directory that cannot be made refuses
 *       ({@code SCOPE_ROOT_NOT_CREATED});
 *   <li>each directory it makes gets its parent's mode and, when the kernel runs as root, its
 *       parent's owner and group: it grants nobody more than the parent did, so the sandbox's uid
 *       can write it exactly when it could have made it in the parent (any other user can only
 *       make directories of its own, as the command itself would have);
 *   <li>a root that a write scope names in full, without wildcards ({@code out/report.txt}), may be
 *       meant as a file and is left alone;
 *   <li>once made, the root's real path must be the root itself, else a link was swapped in on the
 *       way while it was being made ({@code SCOPE_THROUGH_SYMLINK}).
 * </ul>
 *
 * Another process that can write the repository at the same moment can still swap a directory
 * for a link between the check of a component and the creation below it; the real-path check
 * then refuses the run, but an empty directory may have been made where the link pointed. The
 * backends check every mount source again when they mount it.
 */
public final class WriteScopeRoots {
  private static final String RULE = "writeScopes";

  private WriteScopeRoots() {}

  /**
   * What was created, and why the command must not run if it must not.
   *
   * @param created the directories made, repository-relative, each parent before its children
   * @param refusal {@code SCOPE_THROUGH_SYMLINK} or {@code SCOPE_ROOT_NOT_CREATED}, layer
   *     {@code builtin}; roots after the refused one are not attempted
   */
  public record Creation(List<String> created, Optional<Decision> refusal) {
    public Creation {
      created = List.copyOf(created);
      Objects.requireNonNull(refusal, "refusal");
    }
  }

  /** Creates every missing writable root of {@code authority} that a scope requires to be a directory. */
  public static Creation createMissing(EffectiveAuthority authority) {
    Path repository = authority.repository();
    List<WriteScope> scopes = scopesOf(authority);
    List<String> created = new ArrayList<>();
    for (Path root : authority.writableRoots()) {
      if (root.equals(repository)) {
        continue;
      }
      String relative = repository.relativize(root).toString();
      if (scopes.stream().anyMatch(scope -> scope.namesExactly(relative))) {
        continue;
      }
      Optional<Decision> refusal = create(repository, root, relative, authority.protectedPaths(), created);
      if (refusal.isPresent()) {
        return new Creation(created, refusal);
      }
    }
    return new Creation(created, Optional.empty());
  }

  private static Optional<Decision> create(
      Path repository, Path root, String relative, ProtectedPaths protectedPaths, List<String> created) {
    String what = "the write scope root " + Printable.quote(relative);
    Path current = repository;
    boolean made = false;
    for (Path name : repository.relativize(root)) {
      Path next = current.resolve(name);
      String nextRelative = repository.relativize(next).toString();
      Optional<BasicFileAttributes> attributes;
      try {
        attributes = Optional.of(Files.readAttributes(next, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
      } catch (NoSuchFileException e) {
        attributes = Optional.empty();
      } catch (IOException e) {
        return refuse(SCOPE_ROOT_NOT_CREATED, what + " cannot be checked: " + Printable.quote(nextRelative)
            + " cannot be read: " + e.getMessage());
      }
      if (attributes.isPresent()) {
        if (attributes.get().isSymbolicLink()) {
          return refuse(SCOPE_THROUGH_SYMLINK, what + " goes through the symbolic link " + Printable.quote(nextRelative)
              + "; it is not followed and nothing is created through it");
        }
        if (!attributes.get().isDirectory()) {
          if (next.equals(root)) {
            // The root exists; whether a backend can mount what it is, is the backend's to say.
            return Optional.empty();
          }
          return refuse(SCOPE_ROOT_NOT_CREATED, what + " cannot be created: " + Printable.quote(nextRelative)
              + " is not a directory");
        }
        current = next;
        continue;
      }
      Optional<ProtectedPaths.Protection> protection = protectedPaths.protection(nextRelative);
      if (protection.isPresent()) {
        return refuse(SCOPE_ROOT_NOT_CREATED, what + " is missing and is not created: " + Printable.quote(nextRelative)
            + " is protected by " + Printable.quote(protection.get().entry()));
      }
      Optional<Decision> refusal = makeDirectoryLike(next, current, what + ": " + Printable.quote(nextRelative));
      if (refusal.isPresent()) {
        return refusal;
      }
      created.add(nextRelative);
      made = true;
      current = next;
    }
    if (made && !realPathIsItself(root)) {
      return refuse(SCOPE_THROUGH_SYMLINK, what + " was made, but its real path is no longer " + root
          + ": a symbolic link was swapped in on the way");
    }
    return Optional.empty();
  }

  /**
   * Makes the directory {@code dir} in {@code parent} with the parent's mode and, as root, the
   * parent's owner and group (any other user can only make its own directories).
   */
  private static Optional<Decision> makeDirectoryLike(Path dir, Path parent, String what) {
    Map<String, Object> like;
    try {
      like = Files.readAttributes(parent, "unix:mode,uid,gid", LinkOption.NOFOLLOW_LINKS);
      Files.createDirectory(dir);
    } catch (IOException e) {
      return refuse(SCOPE_ROOT_NOT_CREATED, what + " cannot be created: " + e.getMessage());
    }
    try {
      if (ProcessUid.effective() == 0) {
        Files.setAttribute(dir, "unix:uid", like.get("uid"), LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(dir, "unix:gid", like.get("gid"), LinkOption.NOFOLLOW_LINKS);
      }
      Files.setAttribute(dir, "unix:mode", (Integer) like.get("mode") & 07777, LinkOption.NOFOLLOW_LINKS);
      BasicFileAttributes made = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (made.isSymbolicLink()) {
        return refuse(SCOPE_THROUGH_SYMLINK, what + " was replaced by a symbolic link right after it was created");
      }
      if (!made.isDirectory()) {
        return refuse(SCOPE_ROOT_NOT_CREATED, what + " was replaced by something that is not a directory right after it was created");
      }
    } catch (IOException e) {
      return refuse(SCOPE_ROOT_NOT_CREATED, what + " was created, but its owner and mode could not be set: " + e.getMessage());
    }
    return Optional.empty();
  }

  private static boolean realPathIsItself(Path root) {
    try {
      return root.toRealPath().equals(root);
    } catch (IOException e) {
      return false;
    }
  }

  private static List<WriteScope> scopesOf(EffectiveAuthority authority) {
    List<WriteScope> scopes = new ArrayList<>();
    for (AuthorityLayer layer : authority.layers()) {
      layer.writeScopes().ifPresent(patterns -> scopes.add(WriteScope.of(patterns)));
    }
    return scopes;
  }

  private static Optional<Decision> refuse(String code, String message) {
    return Optional.of(Decision.deny(code, PolicyCodes.LAYER_BUILTIN, RULE, message));
  }
}
