package dev.capability.examples.capabilities;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The committed example packages are what their sources build: each {@code NAME/lib/NAME.jar} is,
 * byte for byte, the classes Maven compiled from {@code NAME/src} packed the reproducible way, and
 * each {@code capability.json} pins that jar's digest. A source edited without rebuilding its jar,
 * or a jar replaced without its source, fails here; the rebuilt jar and its digest are written to
 * {@code target/packages/NAME/lib/NAME.jar} for the developer to commit.
 */
class ExamplePackagesTest {
  private static final Path PACKAGES = Path.of("").toAbsolutePath();
  private static final Path CLASSES = PACKAGES.resolve("target/classes");
  private static final Path REBUILT = PACKAGES.resolve("target/packages");
  /** Every entry's time: 2020-01-01 00:00 in the zip format's local time, whatever the build's zone. */
  private static final long ENTRY_TIME = LocalDateTime.of(2020, 1, 1, 0, 0).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();

  @Test
  void everyCommittedModuleIsExactlyWhatItsSourcesBuild() throws IOException {
    List<String> names = packageNames();

    assertThat(names).containsExactly("hello", "notes", "phone-home", "word-count");
    for (String name : names) {
      Path committed = PACKAGES.resolve(name).resolve(entryModule(name)).normalize();
      byte[] rebuilt = pack(classesOf(name));
      if (!java.util.Arrays.equals(rebuilt, Files.readAllBytes(committed))) {
        Path written = REBUILT.resolve(name).resolve(entryModule(name)).normalize();
        Files.createDirectories(written.getParent());
        Files.write(written, rebuilt);
        assertThat(committed).as("%s differs from what %s/src builds; the rebuilt module is %s, its digest %s",
            committed, name, written, digest(rebuilt)).hasBinaryContent(rebuilt);
      }
    }
  }

  @Test
  void everyManifestPinsItsCommittedModuleAndOnlyIt() throws IOException {
    for (String name : packageNames()) {
      String module = entryModule(name);
      byte[] jar = Files.readAllBytes(PACKAGES.resolve(name).resolve(module));

      assertThat(manifest(name).get("modules").properties()).as(name).hasSize(1);
      assertThat(manifest(name).get("modules").get(module).asText()).as(name).isEqualTo(digest(jar));
    }
  }

  @Test
  void everyCompiledClassBelongsToExactlyOnePackage() throws IOException {
    List<Path> claimed = new ArrayList<>();
    for (String name : packageNames()) {
      claimed.addAll(classesOf(name).keySet());
    }
    List<Path> compiled;
    try (Stream<Path> files = Files.walk(CLASSES)) {
      compiled = files.filter(Files::isRegularFile).map(CLASSES::relativize).toList();
    }

    assertThat(claimed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(compiled);
  }

  @Test
  void packingIsReproducibleAndSeesEveryByte() throws IOException {
    Map<Path, byte[]> classes = classesOf("hello");
    Map<Path, byte[]> changed = new TreeMap<>(classes);
    byte[] altered = classes.values().iterator().next().clone();
    altered[altered.length - 1] ^= 1;
    changed.put(classes.keySet().iterator().next(), altered);

    assertThat(pack(classes)).isEqualTo(pack(new TreeMap<>(classes)));
    assertThat(pack(changed)).isNotEqualTo(pack(classes));
  }

  /** The directories here that hold a {@code capability.json}, by name. */
  private static List<String> packageNames() throws IOException {
    try (Stream<Path> children = Files.list(PACKAGES)) {
      return children.filter(child -> Files.isRegularFile(child.resolve("capability.json")))
          .map(child -> child.getFileName().toString()).sorted().toList();
    }
  }

  private static JsonNode manifest(String name) throws IOException {
    return new ObjectMapper().readTree(PACKAGES.resolve(name).resolve("capability.json").toFile());
  }

  private static String entryModule(String name) throws IOException {
    return manifest(name).get("entry").get("module").asText();
  }

  /** The compiled classes of package {@code name}'s sources: for {@code a/B.java}, {@code a/B.class} and {@code a/B$*.class}. */
  private static Map<Path, byte[]> classesOf(String name) throws IOException {
    Path sources = PACKAGES.resolve(name).resolve("src");
    List<Path> javaFiles;
    try (Stream<Path> files = Files.walk(sources)) {
      javaFiles = files.filter(file -> file.toString().endsWith(".java")).map(sources::relativize).toList();
    }
    assertThat(javaFiles).as("the sources of %s", name).isNotEmpty();
    Map<Path, byte[]> classes = new TreeMap<>();
    for (Path source : javaFiles) {
      String type = source.getFileName().toString().replaceFirst("\\.java$", "");
      Path directory = source.getParent() == null ? CLASSES : CLASSES.resolve(source.getParent());
      try (Stream<Path> compiled = Files.list(directory)) {
        for (Path file : compiled.filter(file -> file.getFileName().toString().equals(type + ".class")
            || file.getFileName().toString().startsWith(type + "$")).toList()) {
          classes.put(CLASSES.relativize(file), Files.readAllBytes(file));
        }
      }
    }
    return classes;
  }

  /**
   * The jar of {@code classes}: no manifest, a stored entry for each directory, entries in path
   * order, every time {@link #ENTRY_TIME}.
   */
  static byte[] pack(Map<Path, byte[]> classes) throws IOException {
    TreeSet<Path> entries = new TreeSet<>();
    for (Path file : classes.keySet()) {
      for (Path parent = file.getParent(); parent != null; parent = parent.getParent()) {
        entries.add(parent);
      }
      entries.add(file);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JarOutputStream jar = new JarOutputStream(bytes)) {
      for (Path entry : entries) {
        byte[] content = classes.get(entry);
        ZipEntry zipEntry = new ZipEntry(entry.toString().replace('\\', '/') + (content == null ? "/" : ""));
        zipEntry.setTime(ENTRY_TIME);
        if (content == null) {
          zipEntry.setMethod(ZipEntry.STORED);
          zipEntry.setSize(0);
          zipEntry.setCompressedSize(0);
          zipEntry.setCrc(0);
        }
        jar.putNextEntry(zipEntry);
        if (content != null) {
          jar.write(content);
        }
        jar.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  private static String digest(byte[] bytes) {
    try {
      return "sha512-" + Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-512").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
