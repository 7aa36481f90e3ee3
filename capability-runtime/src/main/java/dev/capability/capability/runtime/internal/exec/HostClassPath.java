package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.api.Capability;
import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Copies what the capability host JVM needs (the runtime, the capability API and the kernel API;
 * the host loads no JSON library) into a run's staging directory, because the sandbox shows none of the host's home or
 * build directories.
 */
final class HostClassPath {
  private static final List<Class<?>> ANCHORS =
      List.of(CapabilityHost.class, Capability.class, CapabilityException.class);

  private HostClassPath() {}

  /** Copies the class path into {@code staging} and returns the entries, absolute. */
  static List<Path> stage(Path staging) throws IOException {
    List<Path> entries = new ArrayList<>();
    // In a shaded jar every anchor has the same code source: stage it once.
    for (Path source : ANCHORS.stream().map(HostClassPath::codeSource).distinct().toList()) {
      Path target = staging.resolve("cp" + entries.size() + (Files.isDirectory(source) ? "" : ".jar"));
      copy(source, target);
      entries.add(target);
    }
    return entries;
  }

  private static Path codeSource(Class<?> anchor) {
    try {
      return Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI()).toRealPath();
    } catch (URISyntaxException | IOException | RuntimeException e) {
      throw new IllegalStateException("cannot locate the code of " + anchor.getName() + ": " + e.getMessage(), e);
    }
  }

  private static void copy(Path source, Path target) throws IOException {
    if (!Files.isDirectory(source)) {
      Files.copy(source, target);
      // A class-data archive is valid only for jars with the modification time they had when it
      // was made. Only the time is kept: the copy keeps its own permissions, which the sandbox user
      // can read.
      Files.setLastModifiedTime(target, Files.getLastModifiedTime(source));
      return;
    }
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Path destination = target.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(destination);
        } else if (Files.isRegularFile(file)) {
          Files.copy(file, destination);
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
