package dev.capability.capability.runtime.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Native;
import dev.capability.capability.api.Capability;
import dev.capability.capability.api.CapabilityContext;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.linux.SeccompFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The capability host's own small class path: what it holds, that the JVM links it alone, and that it is the same bytes every time. */
class HostClassPathTest {
  private static final String LIFECYCLE = "dev/capability/capability/runtime/internal/exec/Lifecycle.class";
  @TempDir Path work;

  private static List<String> entries(Path jar) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      return zip.stream().map(ZipEntry::getName).toList();
    }
  }

  private static String entry(Class<?> type) {
    return type.getName().replace('.', '/') + ".class";
  }

  @Test
  void holdsTheHostAndTheCapabilityApiAndJnaButNoOtherLibraryOfTheApplication() throws IOException {
    Path jar = HostClassPath.stage(work).get(0);

    List<String> entries = entries(jar);
    assertThat(entries)
        .contains(entry(CapabilityHost.class), entry(Lifecycle.class), entry(ModuleClassLoader.class), entry(HostRequest.class))
        .contains(entry(Capability.class), entry(CapabilityContext.class), entry(CapabilityException.class))
        .contains(entry(ProgramStarts.class), entry(SeccompFilter.class), entry(Native.class))
        .allMatch(name -> (name.startsWith("dev/capability/") || name.startsWith("com/sun/jna/")) && name.endsWith(".class"));
    // JNA's native library is staged beside the jar, which holds classes only.
    assertThat(work.resolve(HostClassPath.NATIVE_LIBRARY)).isRegularFile();
    // The executor, the kernel, Jackson and the logging facade are the parent JVM's, never the child's.
    assertThat(entries)
        .noneMatch(name -> name.startsWith("dev/capability/kernel/core/"))
        .noneMatch(name -> name.startsWith("com/fasterxml/") || name.startsWith("org/slf4j/"))
        .doesNotContain(entry(ChildJvmExecutor.class), entry(HostClassPath.class), entry(InProcessExecutor.class));
    assertThat(entries).isSorted();
    assertThat(Files.size(jar)).as("the host's classes and JNA's, not the application").isLessThan(1024 * 1024);
  }

  @Test
  void theJvmLinksAndInitializesEveryClassInItFromTheJarAlone() throws Exception {
    Path jar = HostClassPath.stage(work).get(0);

    List<String> failures = new ArrayList<>();
    try (URLClassLoader alone = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      for (String name : entries(jar)) {
        String className = name.substring(0, name.length() - ".class".length()).replace('/', '.');
        try {
          // Initializing verifies the bytecode (which loads the types it must compare); the
          // declared members resolve every type in their descriptors. JNA's classes and the
          // bindings are linked only: initializing them loads JNA's native library, which the
          // child finds beside the jar through HostClassPath.JVM_OPTIONS (the end-to-end tests).
          boolean loadsNativeCode = name.startsWith("com/sun/jna/") || name.startsWith("dev/capability/linux/");
          Class<?> type = Class.forName(className, !loadsNativeCode, alone);
          assertThat(type.getClassLoader()).isSameAs(alone);
          type.getDeclaredMethods();
          type.getDeclaredFields();
          type.getDeclaredConstructors();
        } catch (ReflectiveOperationException | LinkageError e) {
          failures.add(className + ": " + e);
        }
      }
    }
    assertThat(failures).isEmpty();
  }

  @Test
  void theHostStartsFromTheJarAloneAndRefusesABadRequest() throws IOException, InterruptedException {
    HostClassPath.stage(work);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process host =
        new ProcessBuilder(java.toString(), "-cp", HostClassPath.FILE_NAME, CapabilityHost.class.getName())
            .directory(work.toFile())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    host.getOutputStream().write("not a request".getBytes(StandardCharsets.UTF_8));
    host.getOutputStream().close();
    String log = new String(host.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(host.waitFor()).as(log).isEqualTo(2);
    assertThat(log).contains("capability-host: bad request").doesNotContain("NoClassDefFoundError");
  }

  @Test
  void isTheSameBytesAndModificationTimeEveryTimeItIsBuiltOrStaged() throws IOException {
    HostClassPath.Jar first = HostClassPath.build(HostClassPath.class.getClassLoader());
    HostClassPath.Jar second = HostClassPath.build(HostClassPath.class.getClassLoader());
    Path one = HostClassPath.stage(Files.createDirectory(work.resolve("one"))).get(0);
    Path two = HostClassPath.stage(Files.createDirectory(work.resolve("two"))).get(0);

    assertThat(second.bytes()).isEqualTo(first.bytes());
    assertThat(second.modified()).isEqualTo(first.modified());
    assertThat(Files.readAllBytes(one)).isEqualTo(first.bytes()).isEqualTo(Files.readAllBytes(two));
    assertThat(Files.getLastModifiedTime(one)).isEqualTo(first.modified()).isEqualTo(Files.getLastModifiedTime(two));
    try (ZipFile zip = new ZipFile(one.toFile())) {
      assertThat(zip.stream().map(ZipEntry::getTimeLocal)).containsOnly(LocalDateTime.of(2000, 1, 1, 0, 0));
      assertThat(zip.stream().map(ZipEntry::getMethod)).containsOnly(ZipEntry.STORED);
    }
  }

  @Test
  void otherClassesMakeAJarWithAnotherModificationTimeSoAStaleArchiveIsSkipped() {
    HostClassPath.Jar original = HostClassPath.build(HostClassPath.class.getClassLoader());
    // The same closure with one class's bytes changed (a constant-pool string edited in place).
    HostClassPath.Jar changed =
        HostClassPath.build(
            serving(Map.of(LIFECYCLE, replaced(resource(LIFECYCLE), "returned null", "returned void"))));

    assertThat(changed.bytes()).isNotEqualTo(original.bytes());
    assertThat(changed.bytes()).hasSameSizeAs(original.bytes());
    assertThat(changed.modified()).isNotEqualTo(original.modified());
  }

  @Test
  void refusesToBuildWhenAClassTheHostNeedsCannotBeRead() {
    assertThatThrownBy(() -> HostClassPath.build(serving(Map.of(LIFECYCLE, new byte[0]))))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(CapabilityCodes.ISOLATION_UNAVAILABLE))
        .hasMessageContaining("class " + Lifecycle.class.getName())
        .hasMessageContaining("needed by " + CapabilityHost.class.getName());
    assertThatThrownBy(() -> HostClassPath.build(hiding(entry(CapabilityException.class))))
        .isInstanceOf(CapabilityException.class)
        .hasMessageContaining("class " + CapabilityException.class.getName())
        .hasMessageContaining("is not on the class path");
  }

  @Test
  void mainWritesTheSameJarForAnOperatorsTrainingRun() throws IOException, InterruptedException {
    Path directory = work.resolve("training");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process main =
        new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"), HostClassPath.class.getName(), directory.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(main.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(main.waitFor()).as(output).isZero();
    Path written = directory.resolve(HostClassPath.FILE_NAME);
    assertThat(Files.readAllBytes(written)).isEqualTo(HostClassPath.jar().bytes());
    assertThat(Files.getLastModifiedTime(written)).isEqualTo(HostClassPath.jar().modified());
  }

  private static byte[] resource(String name) {
    try (InputStream in = HostClassPath.class.getClassLoader().getResourceAsStream(name)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] replaced(byte[] classFile, String text, String sameLength) {
    byte[] from = text.getBytes(StandardCharsets.UTF_8);
    byte[] to = sameLength.getBytes(StandardCharsets.UTF_8);
    assertThat(to).hasSameSizeAs(from);
    for (int i = 0; i + from.length <= classFile.length; i++) {
      if (Arrays.equals(classFile, i, i + from.length, from, 0, from.length)) {
        byte[] copy = classFile.clone();
        System.arraycopy(to, 0, copy, i, to.length);
        return copy;
      }
    }
    throw new AssertionError("no '" + text + "' in the class file");
  }

  /** The real class path, except that the given class files have other bytes. */
  private static ClassLoader serving(Map<String, byte[]> replacements) {
    return new ClassLoader(null) {
      @Override
      public InputStream getResourceAsStream(String name) {
        byte[] bytes = replacements.get(name);
        return bytes != null ? new ByteArrayInputStream(bytes) : HostClassPath.class.getClassLoader().getResourceAsStream(name);
      }
    };
  }

  /** The real class path without one class file. */
  private static ClassLoader hiding(String hidden) {
    return new ClassLoader(null) {
      @Override
      public InputStream getResourceAsStream(String name) {
        return name.equals(hidden) ? null : HostClassPath.class.getClassLoader().getResourceAsStream(name);
      }
    };
  }
}
