package dev.capability.capability.runtime.internal.archive;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.internal.effects.ScopeGrammar;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The files of a package, held in memory after every entry was checked: unique names that do not
 * collide by case or normalization, no file used as a directory. Nothing here is ever written to
 * disk or loaded.
 */
public final class PackageContents {
  private final SortedMap<String, byte[]> files;
  private final SortedSet<String> directories;

  private PackageContents(SortedMap<String, byte[]> files, SortedSet<String> directories) {
    this.files = files;
    this.directories = directories;
  }

  /** The names of all files, sorted. */
  public SortedSet<String> fileNames() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(files.keySet()));
  }

  /** A copy of one file's bytes. */
  public Optional<byte[]> file(String name) {
    byte[] bytes = files.get(name);
    return bytes == null ? Optional.empty() : Optional.of(bytes.clone());
  }

  /** The bytes of a file, without copying; for readers inside the runtime that never change them. */
  public byte[] fileUnsafe(String name) {
    return files.get(name);
  }

  /** The names of all directories, explicit or implied, sorted. */
  public SortedSet<String> directories() {
    return Collections.unmodifiableSortedSet(directories);
  }

  /**
   * SHA-256 over the canonical JSON list of {@code [name, sha256]} of every file, sorted by name:
   * any change of any byte or name changes it.
   */
  public String digest() {
    List<Object> listing = new ArrayList<>();
    files.forEach((name, bytes) -> listing.add(List.of(name, Sha256.hex(bytes))));
    return CanonicalJson.sha256(listing);
  }

  /** Collects entries in archive order and refuses duplicates and collisions as they come. */
  public static final class Builder {
    private final ArchiveLimits limits;
    private final Map<String, String> exactByKey = new HashMap<>();
    private final Map<String, Boolean> isDirectoryByKey = new HashMap<>();
    private final Map<String, byte[]> files = new LinkedHashMap<>();
    private final SortedSet<String> directories = new TreeSet<>();
    private final Set<String> explicitDirectories = new HashSet<>();
    private int entries;
    private long totalBytes;

    private final boolean allowJars;

    /**
     * @param allowJars whether jar entries are allowed (in a package, as modules) or refused as
     *     nested archives (inside a module)
     */
    public Builder(ArchiveLimits limits, boolean allowJars) {
      this.limits = limits;
      this.allowJars = allowJars;
    }

    /** Adds a directory entry; {@code rawName} may end with '/'. */
    public Builder directory(String rawName) {
      String name = EntryNames.check(rawName);
      count(rawName);
      register(name, true, true);
      return this;
    }

    /** Adds a file entry. */
    public Builder file(String rawName, byte[] bytes) {
      if (rawName.endsWith("/")) {
        throw new PackageRefusedException(
            CapabilityCodes.ARCHIVE_NON_CANONICAL_NAME,
            "entry '" + ScopeGrammar.printable(rawName) + "' is a file with a directory name");
      }
      String name = EntryNames.check(rawName);
      count(rawName);
      totalBytes += bytes.length;
      if (bytes.length > limits.maxEntryBytes() || totalBytes > limits.maxTotalBytes()) {
        throw new PackageRefusedException(
            CapabilityCodes.ARCHIVE_BOMB, "entry '" + name + "' exceeds the size limits of the package");
      }
      NestedArchives.refuse(name, bytes, allowJars);
      register(name, false, true);
      files.put(name, bytes);
      return this;
    }

    private void count(String rawName) {
      if (++entries > limits.maxEntries()) {
        throw new PackageRefusedException(
            CapabilityCodes.ARCHIVE_BOMB,
            "more than " + limits.maxEntries() + " entries (at '" + ScopeGrammar.printable(rawName) + "')");
      }
    }

    private void register(String name, boolean directory, boolean explicit) {
      int slash = name.lastIndexOf('/');
      if (slash > 0) {
        register(name.substring(0, slash), true, false);
      }
      String key = EntryNames.collisionKey(name);
      String existing = exactByKey.get(key);
      if (existing == null) {
        exactByKey.put(key, name);
        isDirectoryByKey.put(key, directory);
        if (directory) {
          directories.add(name);
          if (explicit) {
            explicitDirectories.add(name);
          }
        }
        return;
      }
      if (!existing.equals(name)) {
        throw new PackageRefusedException(
            CapabilityCodes.ARCHIVE_NAME_COLLISION,
            "entries '" + ScopeGrammar.printable(existing) + "' and '" + ScopeGrammar.printable(name)
                + "' collide on case-insensitive or normalizing file systems");
      }
      boolean wasDirectory = isDirectoryByKey.get(key);
      if (wasDirectory != directory) {
        throw new PackageRefusedException(
            CapabilityCodes.ARCHIVE_NAME_COLLISION,
            "'" + ScopeGrammar.printable(name) + "' is both a file and a directory");
      }
      if (explicit && (!directory || explicitDirectories.contains(name))) {
        throw new PackageRefusedException(
            CapabilityCodes.ARCHIVE_DUPLICATE_ENTRY, "entry '" + ScopeGrammar.printable(name) + "' appears twice");
      }
      if (explicit) {
        explicitDirectories.add(name);
      }
    }

    public PackageContents build() {
      return new PackageContents(Collections.unmodifiableSortedMap(new TreeMap<>(files)), directories);
    }
  }
}
