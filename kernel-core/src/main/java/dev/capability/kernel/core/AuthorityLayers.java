package dev.capability.kernel.core;

import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
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
}
