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
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The checks a layer must pass before it is combined: it stays inside the operator, and its scopes name real locations. */
final class LayerChecks {
  private LayerChecks() {}

  /**
   * Refuses {@code layer} when it allows anything {@code operator} does not.
   *
   * @throws AuthorityException {@code LAYER_WIDENS_OPERATOR}
   */
  static void refuseWidening(AuthorityLayer operator, Optional<WriteScope> operatorScope, AuthorityLayer layer, Optional<WriteScope> scope) {
    if (layer.kind() == Kind.BACKEND) {
      return;
    }
    if (layer.executables().isPresent()) {
      Set<String> extra = new TreeSet<>(layer.executables().get());
      extra.removeAll(operator.executables().orElseThrow());
      if (!extra.isEmpty()) {
        throw widens(layer, "allows the executables " + extra + ", which the operator's policy does not");
      }
    }
    Set<NetworkMode> operatorModes = operator.network().orElseThrow();
    if (layer.network().isPresent() && !operatorModes.containsAll(layer.network().get())) {
      Set<NetworkMode> extra = EnumSet.copyOf(layer.network().get());
      extra.removeAll(operatorModes);
      throw widens(layer, "allows network " + names(extra) + ", which the operator's policy does not");
    }
    boolean layerWrites = layer.projectWrites().equals(Optional.of(ProjectWriteMode.SCOPED)) || layer.writeScopes().isPresent();
    if (layerWrites && isReadOnly(operator)) {
      throw widens(layer, "allows project writes, and the operator's policy makes the repository read-only");
    }
    if (scope.isPresent() && operatorScope.isPresent()) {
      Optional<WriteScope.Widening> widening = scope.get().wideningOf(operatorScope.get());
      if (widening.isPresent()) {
        throw widens(layer, "has the write scope " + Printable.quote(widening.get().pattern().source()) + ", which allows "
            + Printable.quote(widening.get().path()) + "; no write scope of the operator's policy " + operatorScope.get() + " does");
      }
    }
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
