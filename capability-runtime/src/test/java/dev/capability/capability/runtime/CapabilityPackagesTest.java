package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CapabilityPackagesTest {
  private static final String ENTRY = "com.example.Tool";
  @TempDir Path work;

  private byte[] jar(String staticBody, String executeBody) throws IOException {
    return TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, staticBody, executeBody)), null, Map.of());
  }

  private static String code(Path pkg) {
    try {
      CapabilityPackages.open(pkg);
      return "ACCEPTED";
    } catch (PackageRefusedException e) {
      return e.code();
    }
  }

  @Test
  void describesAValidPackage() throws IOException {
    Path pkg = TestPackages.directory(work.resolve("pkg"), jar("", "return \"{}\";"), ENTRY, "{\"filesystem.read\": [\"data\"]}");
    CapabilityDescriptor descriptor = CapabilityPackages.open(pkg).descriptor();
    assertThat(descriptor.name()).isEqualTo("test-capability");
    assertThat(descriptor.version()).isEqualTo("1.2.3");
    assertThat(descriptor.entry()).isEqualTo(new EntryPoint("lib/cap.jar", ENTRY));
    assertThat(descriptor.moduleDigests()).containsOnlyKeys("lib/cap.jar");
    assertThat(descriptor.effects()).containsExactly(Effect.of("filesystem.read", "data"));
    assertThat(descriptor.hooks()).containsExactly(Hook.VERIFY);
    assertThat(descriptor.packageDigest()).hasSize(64);
  }

  @Test
  void opensTheSamePackageAsAZipWithTheSameDigest() throws IOException {
    Path dir = TestPackages.directory(work.resolve("pkg"), jar("", "return \"{}\";"), ENTRY, "{}");
    Path zip = work.resolve("pkg.zip");
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
      for (String name : new String[] {"capability.json", "lib/cap.jar"}) {
        out.putNextEntry(new ZipEntry(name));
        out.write(Files.readAllBytes(dir.resolve(name)));
        out.closeEntry();
      }
    }
    assertThat(CapabilityPackages.open(zip).descriptor().packageDigest())
        .isEqualTo(CapabilityPackages.open(dir).descriptor().packageDigest());
  }

  @Test
  void neverLoadsAClassOfThePackage() throws Exception {
    Path mark = work.resolve("static-initializer-ran");
    String staticBody =
        "try { java.nio.file.Files.writeString(java.nio.file.Path.of(\"" + mark + "\"), \"loaded\"); }"
            + " catch (java.io.IOException e) { throw new RuntimeException(e); }";
    Path pkg =
        TestPackages.directory(work.resolve("pkg"), jar(staticBody, "return \"{}\";"), ENTRY, "{\"filesystem.write\": [\"marks\"]}");

    CapabilityPackage opened = CapabilityPackages.open(pkg);

    assertThat(opened.descriptor().entry().className()).isEqualTo(ENTRY);
    assertThat(mark).doesNotExist();
    // The fixture really marks when loaded: initializing it in a throw-away loader leaves the mark.
    try (URLClassLoader loader = new URLClassLoader(new URL[] {pkg.resolve("lib/cap.jar").toUri().toURL()})) {
      Class.forName(ENTRY, true, loader);
    }
    assertThat(mark).exists();
  }

  @Test
  void refusesModuleBytesThatDoNotMatchTheirIntegrity() throws IOException {
    Path pkg = TestPackages.directory(work.resolve("pkg"), jar("", "return \"{}\";"), ENTRY, "{}");
    byte[] other = jar("", "return \"{\\\"changed\\\":true}\";");
    Files.write(pkg.resolve("lib/cap.jar"), other);
    assertThat(code(pkg)).isEqualTo("MODULE_INTEGRITY_MISMATCH");
  }

  @Test
  void refusesReferencesToUndeclaredEffectsNamingClassMemberAndEffect() throws IOException {
    Path pkg =
        TestPackages.directory(
            work.resolve("pkg"),
            jar("", "try { new ProcessBuilder(\"id\").start(); } catch (java.io.IOException e) { } return \"{}\";"),
            ENTRY,
            "{}");
    assertThatThrownBy(() -> CapabilityPackages.open(pkg))
        .isInstanceOfSatisfying(
            UndeclaredEffectException.class,
            e -> {
              assertThat(e.code()).isEqualTo("EFFECT_UNDECLARED");
              assertThat(e.findings()).contains(new EffectFinding("com/example/Tool", "java/lang/ProcessBuilder.<init>", "process.spawn"));
              assertThat(e.getMessage()).contains("com/example/Tool", "java/lang/ProcessBuilder", "process.spawn");
            });
  }

  @Test
  void acceptsAReferenceWhoseEffectIsDeclared() throws IOException {
    Path pkg =
        TestPackages.directory(
            work.resolve("pkg"),
            jar("", "try { new java.net.Socket(\"example.org\", 443).close(); } catch (java.io.IOException e) { } return \"{}\";"),
            ENTRY,
            "{\"network.connect\": [\"example.org:443\"]}");
    assertThat(code(pkg)).isEqualTo("ACCEPTED");
  }

  @Test
  void refusesClassDefinitionNativeLoadingAndReflectiveNamesWhichNoManifestCanDeclare() throws IOException {
    Path natives =
        TestPackages.directory(work.resolve("native"), jar("", "System.loadLibrary(\"evil\"); return \"{}\";"), ENTRY, "{}");
    assertThat(code(natives)).isEqualTo("EFFECT_UNDECLARED");
    Path reflective =
        TestPackages.directory(
            work.resolve("reflective"),
            jar("", "try { Class.forName(\"java.lang.ProcessBuilder\"); } catch (Exception e) { } return \"{}\";"),
            ENTRY,
            "{}");
    assertThat(code(reflective)).isEqualTo("EFFECT_UNDECLARED");
  }

  @Test
  void refusesHostServiceProvidersAgentsAndClassPaths() throws IOException {
    byte[] spi =
        TestPackages.jar(
            work,
            Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "", "return \"{}\";")),
            null,
            Map.of("META-INF/services/dev.capability.kernel.api.backend.BackendProvider", "com.example.Tool\n"));
    assertThat(code(TestPackages.directory(work.resolve("spi"), spi, ENTRY, "{}"))).isEqualTo("PACKAGE_HOST_SPI");
    for (var attribute : Map.of("Premain-Class", "PACKAGE_AGENT", "Launcher-Agent-Class", "PACKAGE_AGENT", "Class-Path", "PACKAGE_CLASS_PATH").entrySet()) {
      Manifest manifest = new Manifest();
      manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
      manifest.getMainAttributes().putValue(attribute.getKey(), "com.example.Tool");
      byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "", "return \"{}\";")), manifest, Map.of());
      assertThat(code(TestPackages.directory(work.resolve(attribute.getKey()), jar, ENTRY, "{}"))).isEqualTo(attribute.getValue());
    }
  }

  @Test
  void refusesClassesOutsideModulesAndUndeclaredJars() throws IOException {
    Path stray = TestPackages.directory(work.resolve("stray"), jar("", "return \"{}\";"), ENTRY, "{}");
    Files.write(stray.resolve("Loose.class"), new byte[] {(byte) 0xca, (byte) 0xfe, (byte) 0xba, (byte) 0xbe});
    assertThat(code(stray)).isEqualTo("PACKAGE_STRAY_CLASS");
    Path extraJar = TestPackages.directory(work.resolve("extra"), jar("", "return \"{}\";"), ENTRY, "{}");
    Files.copy(extraJar.resolve("lib/cap.jar"), extraJar.resolve("lib/other.jar"));
    assertThat(code(extraJar)).isEqualTo("ARCHIVE_NESTED");
  }

  @Test
  void refusesAMissingManifestModuleOrEntryClass() throws IOException {
    Path noManifest = TestPackages.directory(work.resolve("none"), jar("", "return \"{}\";"), ENTRY, "{}");
    Files.delete(noManifest.resolve("capability.json"));
    assertThat(code(noManifest)).isEqualTo("MANIFEST_MISSING");
    Path noModule = TestPackages.directory(work.resolve("nomodule"), jar("", "return \"{}\";"), ENTRY, "{}");
    Files.delete(noModule.resolve("lib/cap.jar"));
    assertThat(code(noModule)).isEqualTo("MODULE_MISSING");
    Path noClass = TestPackages.directory(work.resolve("noclass"), jar("", "return \"{}\";"), "com.example.Missing", "{}");
    assertThat(code(noClass)).isEqualTo("ENTRY_CLASS_MISSING");
  }
}
