package dev.capability.kernel.core.internal.audit;

import dev.capability.linux.OpenDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How a snapshot walk reads a working tree: one directory at a time, each entry's stat data
 * without following a symbolic link, each subdirectory reached through the listing of its parent
 * and refused when it is not the directory that listing recorded.
 */
abstract class TreeReader {
  /**
   * Lists and stats relative to open directory descriptors ({@code getdents64}, {@code statx})
   * where native access works, else through the JDK's attribute API by absolute path; chosen
   * once per JVM.
   */
  static final TreeReader PREFERRED = nativeWorks() ? new NativeTreeReader() : new JdkTreeReader();

  /** Lists the repository root, the canonical path of a directory. */
  abstract Listing listRoot(Path root) throws IOException;

  /** A recorded entry of a listing: its name and what {@code lstat} saw. */
  record Listed(String name, PathState state) {}

  /**
   * One directory's entries, through which its subdirectories are listed. Each subdirectory walk
   * calls {@link #release()} once, whether it listed the subdirectory or not, after the directory
   * has called {@link #holdFor(int)} with their number.
   */
  abstract static class Listing {
    /** The entries, in no particular order; entries removed while listing are left out. */
    abstract List<Listed> entries();

    /**
     * Lists the subdirectory {@code entries().get(index)}.
     *
     * @param path its repository-relative path, for messages
     * @return null when it was removed after this listing saw it
     * @throws AuditException {@code SNAPSHOT_FAILED} when it is no longer the directory this
     *     listing recorded (replaced, or swapped for a link)
     */
    abstract @Nullable Listing listSubdirectory(int index, String path) throws IOException;

    /** Says how many subdirectory walks will {@link #release()}; 0 when none will. */
    void holdFor(int subdirectories) {}

    /** One subdirectory walk is done with this listing. */
    void release() {}
  }

  /** Whether the native reader can work here; false also when JNA is missing from the class path. */
  private static boolean nativeWorks() {
    try {
      return OpenDirectory.problem().isEmpty();
    } catch (LinkageError e) {
      return false;
    }
  }

  static AuditException replaced(Object directory) {
    return new AuditException(
        AuditException.SNAPSHOT_FAILED,
        directory + " was replaced while it was being snapshotted; nothing can be audited while the tree is changing");
  }
}
