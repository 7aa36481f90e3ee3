package dev.capability.kernel.core.internal.audit;

import dev.capability.linux.FileStatus;
import dev.capability.linux.NativeCallException;
import dev.capability.linux.OpenDirectory;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Reads a tree relative to open directory descriptors (capability-linux-native's {@link
 * OpenDirectory}): each entry is stated by its name within its directory, and each subdirectory
 * opened by its name within its parent without following a link, then checked through its own
 * descriptor to be the directory its parent's listing recorded. Nothing resolves an absolute path,
 * and no attribute map is built.
 *
 * <p>A directory's descriptor stays open until each of its subdirectories has been opened through
 * it, so a walk holds about one descriptor per level of the directories it is working in.
 */
final class NativeTreeReader extends TreeReader {
  /** The JVM's file name encoding, in which the JDK reader's names are decoded too. */
  private static final Charset FILE_NAMES = fileNameCharset();
  private static final char REPLACEMENT = '\uFFFD';

  @Override
  Listing listRoot(Path root) throws IOException {
    OpenDirectory directory;
    try {
      directory = OpenDirectory.open(root);
    } catch (NativeCallException e) {
      throw new IOException(e.getMessage(), e);
    }
    return list(directory, root.toString());
  }

  private static Listing list(OpenDirectory directory, String description) throws IOException {
    List<OpenDirectory.Entry> found;
    try {
      found = directory.list();
    } catch (NativeCallException e) {
      directory.close();
      throw new IOException(e.getMessage(), e);
    } catch (RuntimeException e) {
      directory.close();
      throw e;
    }
    List<Listed> entries = new ArrayList<>(found.size());
    List<byte[]> names = new ArrayList<>(found.size());
    try {
      for (OpenDirectory.Entry entry : found) {
        entries.add(new Listed(name(entry.name(), description), state(entry, description)));
        names.add(entry.name());
      }
    } catch (RuntimeException e) {
      directory.close();
      throw e;
    }
    return new DescriptorListing(directory, description, entries, names);
  }

  private static final class DescriptorListing extends Listing {
    private final OpenDirectory directory;
    private final String description;
    private final List<Listed> entries;
    private final List<byte[]> names;
    private final AtomicInteger holders = new AtomicInteger();

    DescriptorListing(OpenDirectory directory, String description, List<Listed> entries, List<byte[]> names) {
      this.directory = directory;
      this.description = description;
      this.entries = entries;
      this.names = names;
    }

    @Override
    List<Listed> entries() {
      return entries;
    }

    @Override
    @Nullable Listing listSubdirectory(int index, String path) throws IOException {
      String child = description + "/" + entries.get(index).name();
      Optional<OpenDirectory> opened;
      try {
        opened = directory.openChild(names.get(index));
      } catch (NativeCallException e) {
        if (e.code().equals(NativeCallException.PATH_HAS_SYMLINK)) {
          throw replaced(child);
        }
        throw new IOException(e.getMessage(), e);
      }
      if (opened.isEmpty()) {
        return null;
      }
      OpenDirectory subdirectory = opened.get();
      PathState listed = entries.get(index).state();
      FileStatus now;
      try {
        now = subdirectory.status();
      } catch (NativeCallException e) {
        subdirectory.close();
        throw new IOException(e.getMessage(), e);
      }
      if (now.device() != listed.device() || now.inode() != listed.inode()) {
        subdirectory.close();
        throw replaced(child);
      }
      return list(subdirectory, child);
    }

    @Override
    void holdFor(int subdirectories) {
      if (holders.addAndGet(subdirectories) == 0) {
        directory.close();
      }
    }

    @Override
    void release() {
      if (holders.decrementAndGet() == 0) {
        directory.close();
      }
    }
  }

  private static String name(byte[] raw, String directory) {
    String name = new String(raw, FILE_NAMES);
    if (name.indexOf(REPLACEMENT) >= 0) {
      throw RepositoryFiles.undecodableName(directory);
    }
    return name;
  }

  private static PathState state(OpenDirectory.Entry entry, String directory) {
    FileStatus status = entry.status();
    Optional<String> target = Optional.empty();
    if (entry.linkTarget() != null) {
      String link = new String(entry.linkTarget(), FILE_NAMES);
      if (link.indexOf(REPLACEMENT) >= 0) {
        throw PathState.undecodableTarget(directory + "/" + new String(entry.name(), FILE_NAMES));
      }
      target = Optional.of(link);
    }
    return new PathState(
        EntryType.ofMode(status.mode()),
        status.mode() & 07777,
        status.size(),
        status.device(),
        status.inode(),
        PathState.nanos(status.modifiedSeconds(), status.modifiedNanos()),
        PathState.nanos(status.changedSeconds(), status.changedNanos()),
        target,
        Optional.empty());
  }

  private static Charset fileNameCharset() {
    try {
      return Charset.forName(System.getProperty("sun.jnu.encoding"));
    } catch (IllegalArgumentException e) {
      return Charset.defaultCharset();
    }
  }
}
