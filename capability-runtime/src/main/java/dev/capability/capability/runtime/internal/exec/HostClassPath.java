package dev.capability.capability.runtime.internal.exec;

import com.sun.jna.Native;
import com.sun.jna.Platform;
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
 * every class of the capability API package, which capability code links against, and every class
 * of JNA's main package, whose native half looks classes up by name; JDK classes are left to the
 * JDK. So the API's class loader, which capability code can reach, hands out none of the
 * application's libraries but JNA, which the host needs to install its seccomp filter
 * ({@link ProgramStarts}).
 *
 * <p>JNA's native library for this platform is staged beside the jar as {@value #NATIVE_LIBRARY}
 * and loaded from there ({@link #JVM_OPTIONS}): JNA never unpacks it into a shared temporary
 * directory, and never takes another version from the system.
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

  /** JNA's native library in a run's staging directory. */
  static final String NATIVE_LIBRARY = "libjnidispatch.so";

  /**
   * The system properties that make JNA load {@value #NATIVE_LIBRARY} from the child's working
   * directory (the staging directory) and from nowhere else; and an empty platform library path,
   * so that JNA names libseccomp to the dynamic loader, which finds it in the system's library
   * directories (the child's environment is empty: no {@code LD_LIBRARY_PATH}), instead of first
   * running {@code /sbin/ldconfig -p} to list them: without the property JNA starts that program
   * in every child JVM, a fifth of the host's time in a profile (docs/BENCHMARKS.md). A libseccomp
   * that cannot be loaded still makes the host refuse the run.
   */
  static final List<String> JVM_OPTIONS =
      List.of("-Djna.boot.library.path=.", "-Djna.nosys=true", "-Djna.nounpack=true", "-Djna.platform.library.path=");

  private static final String HOST = internalName(CapabilityHost.class);
  private static final String NATIVE_RESOURCE = "com/sun/jna/" + Platform.RESOURCE_PREFIX + "/" + NATIVE_LIBRARY;
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
  private static byte[] nativeLibrary;

  private HostClassPath() {}

  /** Writes {@value #FILE_NAME} and {@value #NATIVE_LIBRARY} into the directory named by the one argument, as a run stages them. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: java -cp <application jar> " + HostClassPath.class.getName() + " <directory>");
    }
    Path directory = Files.createDirectories(Path.of(args[0]));
    Files.deleteIfExists(directory.resolve(FILE_NAME));
    Files.deleteIfExists(directory.resolve(NATIVE_LIBRARY));
    stage(directory);
  }

  /**
   * Writes the host class path and JNA's native library into {@code staging} and returns the class
   * path's entries, absolute.
   */
  static List<Path> stage(Path staging) throws IOException {
    Files.write(staging.resolve(NATIVE_LIBRARY), nativeLibrary(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return List.of(write(jar(), staging.resolve(FILE_NAME)));
  }

  /** JNA's native library for this platform, read on first use and kept for the JVM's lifetime, like the jar. */
  private static synchronized byte[] nativeLibrary() {
    if (nativeLibrary == null) {
      nativeLibrary = read(HostClassPath.class.getClassLoader(), NATIVE_RESOURCE, NATIVE_RESOURCE, "JNA, which the capability host loads to install its seccomp filter");
    }
    return nativeLibrary;
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
    for (String api : packageClasses(Capability.class)) {
      pending.add(api);
      neededBy.put(api, "the capability API, which capability code links against");
    }
    for (String jna : packageClasses(Native.class)) {
      pending.add(jna);
      neededBy.put(jna, "JNA, whose native library looks classes of its package up by name");
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
    return read(loader, name + ".class", name, neededBy);
  }

  private static byte[] read(ClassLoader loader, String resource, String name, String neededBy) {
    try (InputStream in = loader.getResourceAsStream(resource)) {
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

  /** Every class of {@code anchor}'s package (not its subpackages), listed from wherever that package's classes come from. */
  private static List<String> packageClasses(Class<?> anchor) {
    String packagePath = anchor.getPackageName().replace('.', '/') + '/';
    Path source;
    try {
      source = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI()).toRealPath();
    } catch (URISyntaxException | IOException | RuntimeException e) {
      throw new CapabilityException(
          CapabilityCodes.ISOLATION_UNAVAILABLE, "cannot locate the classes of package " + anchor.getPackageName() + ": " + e.getMessage());
    }
    try {
      List<String> entries;
      if (Files.isDirectory(source)) {
        try (Stream<Path> files = Files.list(source.resolve(packagePath))) {
          entries = files.map(file -> packagePath + file.getFileName()).toList();
        }
      } else {
        try (JarFile jar = new JarFile(source.toFile())) {
          entries = jar.stream().map(ZipEntry::getName).toList();
        }
      }
      List<String> classes =
          entries.stream()
              .filter(entry -> entry.startsWith(packagePath) && entry.endsWith(".class") && entry.indexOf('/', packagePath.length()) < 0)
              .map(entry -> entry.substring(0, entry.length() - ".class".length()))
              .sorted()
              .toList();
      if (!classes.contains(internalName(anchor))) {
        throw new CapabilityException(
            CapabilityCodes.ISOLATION_UNAVAILABLE, "cannot find the classes of package " + anchor.getPackageName() + " in " + source);
      }
      return classes;
    } catch (IOException | UncheckedIOException e) {
      throw new CapabilityException(
          CapabilityCodes.ISOLATION_UNAVAILABLE, "cannot list package " + anchor.getPackageName() + " in " + source + ": " + e.getMessage());
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
