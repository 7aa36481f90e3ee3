package dev.capability.cli.internal;

import dev.capability.kernel.api.backend.IsolationCapability;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * What backend probes learned, kept between runs so that a decision ({@code capability check})
 * runs no probe sandbox or container and waits for no daemon. One file per backend, {@code
 * <id>.properties}, in {@code ${XDG_CACHE_HOME:-$HOME/.cache}/capability/backend-probes}: a
 * directory of this user's, mode 0700, its files 0600. An entry counts only when it was probed with
 * the backend's present {@link BackendIdentity}.
 *
 * <p>A directory or file that is a symbolic link, belongs to another user, or is writable by the
 * group or others is refused, as is a file that is not a well-formed entry: the refusal is reported
 * once through {@code notices} and the backend is probed live instead. Writing replaces a refused
 * file (atomically, in the private directory); a refused directory is never written to.
 */
final class BackendProbeCache {
  private static final int FORMAT = 1;
  private static final int MAX_BYTES = 64 * 1024;
  private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
  private static final Pattern IDENTITY = Pattern.compile("[0-9a-f]{64}");
  private static final Set<PosixFilePermission> GROUP_OR_OTHERS_WRITE =
      EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

  private static final FileAttribute<Set<PosixFilePermission>> PRIVATE_DIRECTORY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

  private final Optional<Path> directory;
  private final Consumer<String> notices;
  private boolean directoryRefused;

  BackendProbeCache(Optional<Path> directory, Consumer<String> notices) {
    this.directory = directory;
    this.notices = notices;
  }

  /** The cache of this user: {@code ${XDG_CACHE_HOME:-$HOME/.cache}/capability/backend-probes}; none when neither is absolute. */
  static BackendProbeCache forUser(Map<String, String> environment, Consumer<String> notices) {
    return new BackendProbeCache(defaultDirectory(environment), notices);
  }

  static Optional<Path> defaultDirectory(Map<String, String> environment) {
    String xdg = environment.get("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()) {
      return Optional.of(Path.of(xdg, "capability", "backend-probes").normalize());
    }
    String home = environment.get("HOME");
    if (home != null && !home.isEmpty() && Path.of(home).isAbsolute()) {
      return Optional.of(Path.of(home, ".cache", "capability", "backend-probes").normalize());
    }
    return Optional.empty();
  }

  /** The uid this JVM runs as. */
  static int currentUid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read this process's uid from /proc/self", e);
    }
  }

  /** The entry for backend {@code id} probed with {@code identity}; empty when there is none, it is stale, or it was refused. */
  Optional<BackendProbe> read(String id, String identity) {
    Optional<Path> file = file(id);
    if (file.isEmpty() || !directoryTrusted(false)) {
      return Optional.empty();
    }
    try {
      Properties p = load(file.get());
      BackendProbe probe = parse(id, p);
      return probe.identity().equals(identity) ? Optional.of(probe) : Optional.empty();
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | IllegalArgumentException e) {
      notices.accept("the backend probe cache entry " + file.get() + " was refused (" + e.getMessage() + "); probing " + id + " live");
      return Optional.empty();
    }
  }

  /** Keeps {@code probe}, replacing what was there; a cache that cannot be written is reported and left as it is. */
  void write(BackendProbe probe) {
    Optional<Path> file = file(probe.id());
    if (file.isEmpty() || !directoryTrusted(true)) {
      return;
    }
    Path temporary = null;
    try {
      temporary = Files.createTempFile(file.get().getParent(), "." + probe.id() + "-", ".tmp",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      try (var out = Files.newOutputStream(temporary, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        out.write(serialize(probe));
      }
      try {
        Files.move(temporary, file.get(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file.get(), StandardCopyOption.REPLACE_EXISTING);
      }
      temporary = null;
    } catch (IOException e) {
      notices.accept("could not write the backend probe cache entry " + file.get() + ": " + e.getMessage());
    } finally {
      if (temporary != null) {
        try {
          Files.deleteIfExists(temporary);
        } catch (IOException ignored) {
          // Left behind in the private directory; the next write makes a new one.
        }
      }
    }
  }

  private Optional<Path> file(String id) {
    return ID.matcher(id).matches() ? directory.map(d -> d.resolve(id + ".properties")) : Optional.empty();
  }

  /**
   * Whether the directory (and its parent, {@code capability}) is this user's, not a link and not
   * writable by others; with {@code create}, made (0700) when missing. A refusal is reported once.
   */
  private boolean directoryTrusted(boolean create) {
    if (directoryRefused || directory.isEmpty()) {
      return false;
    }
    Path dir = directory.get();
    try {
      if (create && !Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
        // Private from the start, whatever the umask: a group-writable parent would be refused.
        Files.createDirectories(dir.getParent(), PRIVATE_DIRECTORY);
        Files.createDirectory(dir, PRIVATE_DIRECTORY);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      }
      if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
        return false;
      }
      requirePrivate(dir.getParent(), true);
      requirePrivate(dir, true);
      return true;
    } catch (IOException | IllegalArgumentException e) {
      directoryRefused = true;
      notices.accept("the backend probe cache directory " + dir + " was refused (" + e.getMessage() + "); probing live");
      return false;
    }
  }

  /** Refuses a link, another user's file, one writable by the group or others, or the wrong type. */
  private static void requirePrivate(Path path, boolean directory) throws IOException {
    Map<String, Object> a = Files.readAttributes(path, "unix:uid,mode,isDirectory,isRegularFile,isSymbolicLink", LinkOption.NOFOLLOW_LINKS);
    if (Boolean.TRUE.equals(a.get("isSymbolicLink"))) {
      throw new IllegalArgumentException(path + " is a symbolic link");
    }
    if (directory ? !Boolean.TRUE.equals(a.get("isDirectory")) : !Boolean.TRUE.equals(a.get("isRegularFile"))) {
      throw new IllegalArgumentException(path + " is not a " + (directory ? "directory" : "regular file"));
    }
    int uid = (Integer) a.get("uid");
    if (uid != currentUid()) {
      throw new IllegalArgumentException(path + " belongs to uid " + uid + ", not to this user (uid " + currentUid() + ")");
    }
    Set<PosixFilePermission> permissions = PosixFilePermissions.fromString(
        PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS)));
    if (permissions.stream().anyMatch(GROUP_OR_OTHERS_WRITE::contains)) {
      throw new IllegalArgumentException(path + " is writable by its group or by others");
    }
  }

  /** Reads the file without following a link, checking what was opened. */
  private static Properties load(Path file) throws IOException {
    requirePrivate(file, false);
    byte[] bytes;
    try (SeekableByteChannel channel = Files.newByteChannel(file, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
      if (channel.size() > MAX_BYTES) {
        throw new IllegalArgumentException("it is larger than " + MAX_BYTES + " bytes");
      }
      ByteBuffer buffer = ByteBuffer.allocate((int) channel.size() + 1);
      while (channel.read(buffer) > 0 && buffer.hasRemaining()) {
        // Read to the end; a file that grew meanwhile is caught below.
      }
      if (!buffer.hasRemaining()) {
        throw new IllegalArgumentException("it changed while it was read");
      }
      bytes = java.util.Arrays.copyOf(buffer.array(), buffer.position());
    }
    Properties properties = new Properties();
    try (InputStream in = new ByteArrayInputStream(bytes)) {
      properties.load(in);
    }
    return properties;
  }

  private static BackendProbe parse(String id, Properties p) {
    if (!String.valueOf(FORMAT).equals(p.getProperty("format"))) {
      throw new IllegalArgumentException("it is not a format " + FORMAT + " entry");
    }
    if (!id.equals(p.getProperty("id"))) {
      throw new IllegalArgumentException("it is the entry of '" + p.getProperty("id") + "', not of '" + id + "'");
    }
    String identity = required(p, "identity");
    if (!IDENTITY.matcher(identity).matches()) {
      throw new IllegalArgumentException("its identity is not a SHA-256");
    }
    String available = required(p, "available");
    if (!available.equals("true") && !available.equals("false")) {
      throw new IllegalArgumentException("available is neither true nor false");
    }
    String capabilities = required(p, "capabilities");
    Set<IsolationCapability> parsed = EnumSet.noneOf(IsolationCapability.class);
    for (String name : capabilities.isEmpty() ? new String[0] : capabilities.split(",")) {
      parsed.add(IsolationCapability.valueOf(name));
    }
    if (!"end".equals(p.getProperty("end"))) {
      throw new IllegalArgumentException("it is incomplete");
    }
    return new BackendProbe(id, identity, available.equals("true"), required(p, "reason"), parsed,
        prefixed(p, "version."), prefixed(p, "diagnostic."));
  }

  private static String required(Properties p, String key) {
    String value = p.getProperty(key);
    if (value == null) {
      throw new IllegalArgumentException("it has no " + key);
    }
    return value;
  }

  private static Map<String, String> prefixed(Properties p, String prefix) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String key : p.stringPropertyNames()) {
      if (key.startsWith(prefix)) {
        values.put(key.substring(prefix.length()), p.getProperty(key));
      }
    }
    return values;
  }

  private static byte[] serialize(BackendProbe probe) throws IOException {
    Properties p = new Properties();
    p.setProperty("format", String.valueOf(FORMAT));
    p.setProperty("id", probe.id());
    p.setProperty("identity", probe.identity());
    p.setProperty("available", String.valueOf(probe.available()));
    p.setProperty("reason", probe.reason());
    p.setProperty("capabilities", String.join(",", probe.capabilities().stream().map(Enum::name).sorted().toList()));
    probe.versions().forEach((k, v) -> p.setProperty("version." + k, v));
    probe.diagnostics().forEach((k, v) -> p.setProperty("diagnostic." + k, v));
    p.setProperty("end", "end");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    p.store(out, "capability backend probe cache; 'capability doctor' probes again and rewrites it");
    return out.toByteArray();
  }
}
