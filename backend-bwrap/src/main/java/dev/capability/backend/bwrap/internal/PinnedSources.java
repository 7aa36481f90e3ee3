package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.linux.DescriptorSpawn;
import dev.capability.linux.NativeCallException;
import dev.capability.linux.PinnedPath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bind sources of one run that lie in the repository or a writable root, each held open by
 * descriptor from the moment it is checked until bwrap has mounted it. bwrap gets them as {@code
 * --bind-fd}/{@code --ro-bind-fd}, so a directory swapped for a symlink after the layout's checks
 * (by a concurrent run that can write its parent) is never followed: bwrap mounts the directory
 * that was opened, wherever it now is.
 */
final class PinnedSources implements AutoCloseable {
  private final List<PinnedPath> pinned;
  private final Map<String, List<Integer>> childDescriptors;

  private PinnedSources(List<PinnedPath> pinned, Map<String, List<Integer>> childDescriptors) {
    this.pinned = pinned;
    this.childDescriptors = childDescriptors;
  }

  /**
   * Opens each of {@code sources} without following links, once per occurrence: bwrap closes a
   * descriptor once it has mounted it, so a path bound twice (the repository read-only and again
   * as a writable root) needs two.
   *
   * @throws LaunchFailedException {@link LaunchFailedException#BIND_SOURCE_CHANGED} when one is, or passes through, a
   *     symlink now, or is gone; {@link LaunchFailedException#CODE} without native access
   */
  static PinnedSources open(List<Path> sources) {
    List<PinnedPath> pinned = new ArrayList<>();
    Map<String, List<Integer>> descriptors = new LinkedHashMap<>();
    try {
      for (Path source : sources) {
        PinnedPath path = PinnedPath.open(source);
        pinned.add(path);
        descriptors
            .computeIfAbsent(source.toString(), s -> new ArrayList<>())
            .add(DescriptorSpawn.FIRST_HANDED_DESCRIPTOR + pinned.size() - 1);
      }
    } catch (NativeCallException e) {
      pinned.forEach(PinnedPath::close);
      if (e.code().equals(NativeCallException.NATIVE_UNAVAILABLE)) {
        throw new LaunchFailedException(
            "cannot open the bind sources by descriptor: " + e.getMessage());
      }
      throw LaunchFailedException.withCode(
          LaunchFailedException.BIND_SOURCE_CHANGED,
          e.getMessage()
              + " (it passed the checks a moment earlier: something changed it while the run was"
              + " being prepared, for example a concurrent run over the same writable root)");
    } catch (RuntimeException e) {
      pinned.forEach(PinnedPath::close);
      throw e;
    }
    Map<String, List<Integer>> frozen = new LinkedHashMap<>();
    descriptors.forEach((source, list) -> frozen.put(source, List.copyOf(list)));
    return new PinnedSources(List.copyOf(pinned), Map.copyOf(frozen));
  }

  /**
   * Source path to the descriptors bwrap gets it as, one per bind of that source, in the order
   * the binds come in the plan.
   */
  Map<String, List<Integer>> childDescriptors() {
    return childDescriptors;
  }

  /** This JVM's descriptors, in the order the child gets them. */
  List<Integer> jvmDescriptors() {
    return pinned.stream().map(PinnedPath::descriptor).toList();
  }

  @Override
  public void close() {
    pinned.forEach(PinnedPath::close);
  }
}
