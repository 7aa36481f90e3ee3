package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.LAYER_WIDENS_OPERATOR;
import static dev.capability.kernel.api.authority.AuthorityCodes.SCOPE_THROUGH_SYMLINK;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The checks a layer must pass before it is combined: it stays inside the operator, and its scopes name real locations. */
final class LayerChecks {
  private LayerChecks() {}

  /**
   * Refuses {@code layer} when it allows anything {@code outer} does not: the operator's policy,
   * or (for a work plan's phase) the project contract. A constraint {@code outer} leaves out is
   * not compared: the layers above it decide that one.
   *
   * @throws AuthorityException {@code LAYER_WIDENS_OPERATOR}, naming the counterexample
   */
  static void refuseWidening(AuthorityLayer outer, Optional<WriteScope> outerScope, AuthorityLayer layer, Optional<WriteScope> scope) {
    if (layer.kind() == Kind.BACKEND) {
      return;
    }
    if (layer.executables().isPresent() && outer.executables().isPresent()) {
      Set<String> extra = new TreeSet<>(layer.executables().get());
      extra.removeAll(outer.executables().get());
      if (!extra.isEmpty()) {
        throw widens(layer, "allows the executables " + extra + ", which " + describe(outer) + " does not");
      }
    }
    if (layer.network().isPresent() && outer.network().isPresent() && !outer.network().get().containsAll(layer.network().get())) {
      Set<NetworkMode> extra = EnumSet.copyOf(layer.network().get());
      extra.removeAll(outer.network().get());
      // A layer allows its widest mode and every narrower one: the widest it adds is the one to name.
      NetworkMode widest = extra.stream().max(Comparator.naturalOrder()).orElseThrow();
      throw widens(layer, "allows network " + names(EnumSet.of(widest)) + ", which " + describe(outer) + " does not");
    }
    boolean layerWrites = layer.projectWrites().equals(Optional.of(ProjectWriteMode.SCOPED)) || layer.writeScopes().isPresent();
    if (layerWrites && isReadOnly(outer)) {
      throw widens(layer, "allows project writes, and " + describe(outer) + " makes the repository read-only");
    }
    if (scope.isPresent() && outerScope.isPresent()) {
      Optional<WriteScope.Widening> widening = scope.get().wideningOf(outerScope.get());
      if (widening.isPresent()) {
        throw widens(layer, "has the write scope " + Printable.quote(widening.get().pattern().source()) + ", which allows "
            + Printable.quote(widening.get().path()) + "; no write scope of " + describe(outer) + " " + outerScope.get() + " does");
      }
    }
  }

  /**
   * Refuses {@code layer} when it allows anything {@code outer} does not, compiling both layers'
   * write scopes first.
   *
   * @throws AuthorityException {@code LAYER_WIDENS_OPERATOR} or {@code SCOPE_PATTERN_INVALID}
   */
  static void refuseWidening(AuthorityLayer outer, AuthorityLayer layer) {
    refuseWidening(outer, outer.writeScopes().map(WriteScope::of), layer, layer.writeScopes().map(WriteScope::of));
  }

  /**
   * Refuses a scope whose literal start goes through a symbolic link below {@code root}: the link,
   * not the scope, would decide where writes land.
   *
   * @throws AuthorityException {@code SCOPE_THROUGH_SYMLINK}
   */
  static void refuseSymlinkedScopes(AuthorityLayer layer, WriteScope scope, Path root) {
    for (GlobPattern pattern : scope.patterns()) {
      Path current = root;
      for (String segment : pattern.literalPrefix()) {
        current = current.resolve(segment);
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          break;
        } catch (IOException e) {
          throw new AuthorityException(SCOPE_THROUGH_SYMLINK, "write scope " + Printable.quote(pattern.source()) + " of "
              + describe(layer) + " cannot be checked: " + current + " cannot be read: " + e.getMessage(), e);
        }
        if (attributes.isSymbolicLink()) {
          throw new AuthorityException(SCOPE_THROUGH_SYMLINK, "write scope " + Printable.quote(pattern.source()) + " of "
              + describe(layer) + " goes through the symbolic link " + root.relativize(current)
              + "; a scope must name the real location, so that it cannot be pointed elsewhere");
        }
        if (!attributes.isDirectory()) {
          break;
        }
      }
    }
  }

  /** How a layer is named in messages: the operator's policy, or its kind and source. */
  static String describe(AuthorityLayer layer) {
    return layer.kind() == Kind.OPERATOR ? "the operator's policy" : "the " + layer.kind().layerName() + " layer (" + layer.source() + ")";
  }

  static boolean isReadOnly(AuthorityLayer layer) {
    return layer.projectWrites().equals(Optional.of(ProjectWriteMode.READ_ONLY));
  }

  /** Network modes as the files write them: {@code [none, host]}. */
  static String names(Set<NetworkMode> modes) {
    return modes.stream().map(LayerChecks::name).toList().toString();
  }

  static String name(NetworkMode mode) {
    return mode.name().toLowerCase(Locale.ROOT);
  }

  private static AuthorityException widens(AuthorityLayer layer, String what) {
    return new AuthorityException(LAYER_WIDENS_OPERATOR, describe(layer) + " " + what);
  }
}
