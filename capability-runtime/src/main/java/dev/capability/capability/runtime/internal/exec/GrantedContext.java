package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.api.CapabilityContext;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/** The context a capability sees: the granted paths, resolved against the working directory. */
record GrantedContext(List<Path> readablePaths, List<Path> writablePaths, Consumer<String> logger)
    implements CapabilityContext {
  GrantedContext {
    readablePaths = List.copyOf(readablePaths);
    writablePaths = List.copyOf(writablePaths);
    Objects.requireNonNull(logger, "logger");
  }

  static GrantedContext of(List<Effect> granted, Consumer<String> logger) {
    return new GrantedContext(paths(granted, EffectKind.FILESYSTEM_READ), paths(granted, EffectKind.FILESYSTEM_WRITE), logger);
  }

  private static List<Path> paths(List<Effect> granted, EffectKind kind) {
    return granted.stream()
        .filter(effect -> effect.kind() == kind)
        .map(effect -> Path.of(effect.scope()).toAbsolutePath().normalize())
        .toList();
  }

  @Override
  public void log(String line) {
    logger.accept(String.valueOf(line));
  }
}
