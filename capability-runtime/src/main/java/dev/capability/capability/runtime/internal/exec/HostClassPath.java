package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.api.Capability;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.internal.scan.ClassFileReader;
import dev.capability.kernel.api.CapabilityException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The capability host JVM's class path: one small jar of only the classes that JVM can load, so
 * the child does not open the application's whole (possibly shaded) jar to load a few dozen
 * classes. It holds the classes {@link CapabilityHost} reaches through its class files' references,
 * and every class of the capability API package, which capability code links against; JDK classes
 * are left to the JDK. So the API's class loader, which capability code can reach, hands out none
 * of the application's libraries.
 *
 * <p>The jar is built once per JVM and is the same bytes in every JVM built from the same classes:
 * entries sorted and stored (not compressed, so no zlib version changes them) with one fixed entry
 * time, and a file modification time derived from the jar's digest. A class-data archive records
 * the size and modification time of each jar on its class path, so one archive made for this jar
 * fits every run and every process, and a jar whose classes changed gets another time and makes
 * the JVM skip a stale archive instead of mapping it.
 *
 * <p>Run as a main, it writes the jar as {@value #FILE_NAME} into the directory given, for an
 * operator's archive training run (see docs/BENCHMARKS.md).
 */
final class HostClassPath {
  /** The jar's name in a run's staging directory; the class path names it relative to that directory. */
  static final String FILE_NAME = "host.jar";

  private static final String HOST = internalName(CapabilityHost.class);
  private static final String API_PACKAGE = Capability.class.getPackageName().replace('.', '/') + '/';
  private static final LocalDateTime ENTRY_TIME = LocalDateTime.of(2000, 1, 1, 0, 0);
  private static final Instant MODIFIED_BASE = Instant.parse("2001-01-01T00:00:00Z");
  // About eight years of seconds after the base: a time no build tool leaves on a jar by accident.
  private static final long MODIFIED_SPAN_SECONDS = 1L << 28;

  /** The jar's bytes and the modification time every copy of it gets. */
  record Jar(byte[] bytes, FileTime modified) {
    Jar {
      bytes = Objects.requireNonNull(bytes, "bytes").clone();
      Objects.requireNonNull(modified, "modified");
    }

    /** A copy: the jar kept for the JVM's lifetime is never changed by a caller. */
    @Override
    public byte[] bytes() {
      return bytes.clone();
    }
  }

  private static Jar built;

  private HostClassPath() {}

  /** Writes {@value #FILE_NAME} into the directory named by the one argument. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: java -cp <application jar> " + HostClassPath.class.getName() + " <directory>");
    }
    Files.createDirectories(Path.of(args[0]));
    Path target = Path.of(args[0]).resolve(FILE_NAME);
    Files.deleteIfExists(target);
    write(jar(), target);
  }

  /** Writes the host class path into {@code staging} and returns its entries, absolute. */
  static List<Path> stage(Path staging) throws IOException {
    return List.of(write(jar(), staging.resolve(FILE_NAME)));
  }

  /**
   * The jar, built on first use and kept for the JVM's lifetime. It stays in memory and is written
   * into each run's directory: a copy read from a shared file could be changed between runs, and a
   * hard link would let a child that runs as this JVM's user (the process backend) rewrite the jar
   * of every later run.
   */
  static synchronized Jar jar() {
    if (built == null) {
      built = build(HostClassPath.class.getClassLoader());
    }
    return built;
  }

  /** Builds the jar from the classes {@code loader} finds; a class it needs but cannot read is an error naming it. */
  static Jar build(ClassLoader loader) {
    SortedMap<String, byte[]> classes = closure(loader);
    byte[] bytes = zip(classes);
    return new Jar(bytes, modifiedTime(bytes));
  }

  private static SortedMap<String, byte[]> closure(ClassLoader loader) {
    Map<String, String> neededBy = new HashMap<>();
    Deque<String> pending = new ArrayDeque<>();
    pending.add(HOST);
    neededBy.put(HOST, "the capability host itself");
    for (String api : apiClasses()) {
      pending.add(api);
      neededBy.put(api, "the capability API, which capability code links against");
    }
    SortedMap<String, byte[]> classes = new TreeMap<>();
    while (!pending.isEmpty()) {
      String name = pending.remove();
      byte[] bytes = read(loader, name, neededBy.get(name));
      // Keyed by entry name, so the jar is sorted by what it stores.
      classes.put(name + ".class", bytes);
      Iterable<String> references;
      try {
        references = ClassFileReader.read(bytes, name).referencedClassNames();
      } catch (PackageRefusedException e) {
        throw incomplete(name, neededBy.get(name), e.getMessage());
      }
      for (String reference : references) {
        if (!neededBy.containsKey(reference) && !inJdk(reference)) {
          neededBy.put(reference, name.replace('/', '.'));
          pending.add(reference);
        }
      }
    }
    return classes;
  }

  private static boolean inJdk(String name) {
    // A class file is never encapsulated, so the platform loader (and the boot loader behind it)
    // finds every JDK class, exported or not.
    return ClassLoader.getPlatformClassLoader().getResource(name + ".class") != null;
  }

  private static byte[] read(ClassLoader loader, String name, String neededBy) {
    try (InputStream in = loader.getResourceAsStream(name + ".class")) {
      if (in == null) {
        throw incomplete(name, neededBy, "it is not on the class path");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw incomplete(name, neededBy, e.getMessage());
    }
  }

  private static CapabilityException incomplete(String name, String neededBy, String why) {
    return new CapabilityException(
        CapabilityCodes.ISOLATION_UNAVAILABLE,
        "cannot build the capability host's class path: class " + name.replace('/', '.') + " (needed by " + neededBy
            + ") cannot be read: " + why);
  }

  /** Every class of the capability API package, listed from wherever that package's classes come from. */
  private static List<String> apiClasses() {
    Path source;
    try {
      source = Path.of(Capability.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toRealPath();
    } catch (URISyntaxException | IOException | RuntimeException e) {
      throw new CapabilityException(
          CapabilityCodes.ISOLATION_UNAVAILABLE, "cannot locate the classes of the capability API package: " + e.getMessage());
    }
    try {
      List<String> entries;
      if (Files.isDirectory(source)) {
        try (Stream<Path> files = Files.list(source.resolve(API_PACKAGE))) {
          entries = files.map(file -> API_PACKAGE + file.getFileName()).toList();
        }
      } else {
        try (JarFile jar = new JarFile(source.toFile())) {
          entries = jar.stream().map(ZipEntry::getName).toList();
        }
      }
      List<String> classes =
          entries.stream()
              .filter(entry -> entry.startsWith(API_PACKAGE) && entry.endsWith(".class") && entry.indexOf('/', API_PACKAGE.length()) < 0)
              .map(entry -> entry.substring(0, entry.length() - ".class".length()))
              .sorted()
              .toList();
      if (!classes.contains(internalName(Capability.class))) {
        throw new CapabilityException(
            CapabilityCodes.ISOLATION_UNAVAILABLE, "cannot find the classes of the capability API package in " + source);
      }
      return classes;
    } catch (IOException | UncheckedIOException e) {
      throw new CapabilityException(
          CapabilityCodes.ISOLATION_UNAVAILABLE, "cannot list the capability API package in " + source + ": " + e.getMessage());
    }
  }

  private static byte[] zip(SortedMap<String, byte[]> classes) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream out = new ZipOutputStream(bytes)) {
      for (Map.Entry<String, byte[]> entry : classes.entrySet()) {
        byte[] content = entry.getValue();
        ZipEntry zipEntry = new ZipEntry(entry.getKey());
        zipEntry.setMethod(ZipEntry.STORED);
        zipEntry.setSize(content.length);
        zipEntry.setCompressedSize(content.length);
        CRC32 crc = new CRC32();
        crc.update(content);
        zipEntry.setCrc(crc.getValue());
        // A local time in the DOS range is stored as it is, with no zone and no extra field.
        zipEntry.setTimeLocal(ENTRY_TIME);
        out.putNextEntry(zipEntry);
        out.write(content);
        out.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the capability host's class path in memory", e);
    }
    return bytes.toByteArray();
  }

  private static FileTime modifiedTime(byte[] jar) {
    try {
      long digest = ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(jar)).getLong();
      return FileTime.from(MODIFIED_BASE.plusSeconds(Math.floorMod(digest, MODIFIED_SPAN_SECONDS)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static Path write(Jar jar, Path target) throws IOException {
    Files.write(target, jar.bytes(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    Files.setLastModifiedTime(target, jar.modified());
    return target;
  }

  private static String internalName(Class<?> type) {
    return type.getName().replace('.', '/');
  }
}
