package dev.capability.capability.api;

import java.nio.file.Path;
import java.util.List;

/**
 * What the operator granted to one run of a capability. The lists hold only paths whose effects
 * were granted; the boundary the capability runs in enforces them, this object only tells the
 * capability where to look.
 */
public interface CapabilityContext {

  /** Directories and files granted by {@code filesystem.read}, absolute, in grant order. */
  List<Path> readablePaths();

  /** Directories and files granted by {@code filesystem.write}, absolute, in grant order. */
  List<Path> writablePaths();

  /**
   * Writes one line to the run's log (the child's standard error), never to its output.
   *
   * @param line the text, without a trailing newline
   */
  void log(String line);
}
