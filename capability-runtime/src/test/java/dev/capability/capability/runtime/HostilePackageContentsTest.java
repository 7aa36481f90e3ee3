package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.capability.api.Capability;
import dev.capability.capability.runtime.internal.manifest.Integrity;
import dev.capability.kernel.api.CapabilityException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Packages whose files try to get code or authority past inspection; each is built here, for real. */
class HostilePackageContentsTest {
  private static final String ENTRY = "com.example.Tool";
  private static final int RUNTIME_MAJOR = Runtime.version().feature() + 44;
  @TempDir Path work;

  /** javac-compiled class files of {@code sources} (file path to source), by jar entry name. */
  private Map<String, byte[]> compile(Map<String, String> sources) throws IOException {
    return TestPackages.classes(work, sources);
  }

  private Map<String, byte[]> tool() throws IOException {
    return compile(Map.of("com/example/Tool.java", TestPackages.capabilitySource(ENTRY, "", "return \"{}\";")));
  }

  private static byte[] zip(Map<String, byte[]> entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (var entry : entries.entrySet()) {
        zip.putNextEntry(new ZipEntry(entry.getKey()));
        zip.write(entry.getValue());
        zip.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  private static Map<String, byte[]> with(Map<String, byte[]> entries, String name, String text) {
    Map<String, byte[]> copy = new LinkedHashMap<>(entries);
    copy.put(name, text.getBytes(StandardCharsets.UTF_8));
    return copy;
  }

  /** The refusal code of a package of module {@code jarEntries}, with {@code rootFiles} beside the manifest. */
  private String refusal(Map<String, byte[]> jarEntries, String entryClass, String effects, Map<String, String> rootFiles)
      throws IOException {
    byte[] jar = zip(jarEntries);
    Path root = Files.createTempDirectory(work, "package");
    Files.createDirectories(root.resolve("lib"));
    Files.write(root.resolve("lib/cap.jar"), jar);
    Files.writeString(root.resolve("capability.json"), TestPackages.manifest(Integrity.of(jar), entryClass, effects));
    for (var file : rootFiles.entrySet()) {
      Files.createDirectories(root.resolve(file.getKey()).getParent());
      Files.writeString(root.resolve(file.getKey()), file.getValue());
    }
    try {
      CapabilityPackages.open(root);
      return "ACCEPTED";
    } catch (CapabilityException e) {
      return e.code();
    }
  }

  private String refusal(Map<String, byte[]> jarEntries) throws IOException {
    return refusal(jarEntries, ENTRY, "{}", Map.of());
  }

  @Test
  void theWellFormedToolIsAccepted() throws IOException {
    assertThat(refusal(tool())).isEqualTo("ACCEPTED");
  }

  @Test
  void readsJarManifestsAndServiceFilesWhateverTheCaseOfTheirNames() throws IOException {
    String agent = "Manifest-Version: 1.0\r\nLauncher-Agent-Class: com.example.Tool\r\n\r\n";
    String classPath = "Manifest-Version: 1.0\r\nClass-Path: evil.jar\r\n\r\n";
    assertThat(refusal(with(tool(), "meta-inf/manifest.mf", agent))).isEqualTo(CapabilityCodes.PACKAGE_AGENT);
    assertThat(refusal(with(tool(), "Meta-Inf/Manifest.MF", classPath))).isEqualTo(CapabilityCodes.PACKAGE_CLASS_PATH);
    assertThat(refusal(with(tool(), "meta-inf/services/dev.capability.capability.api.Capability", "com.example.Tool")))
        .isEqualTo(CapabilityCodes.PACKAGE_HOST_SPI);
  }

  @Test
  void refusesScopesWithInvisibleOrReorderingCharacters() throws IOException {
    for (String scope : List.of("a\\u202eb", "a\\u200bb", "data\\u2066/x", "a\\u00a0b", "a\\u2028b", "a\\ue000b")) {
      assertThat(refusal(tool(), ENTRY, "{\"filesystem.read\": [\"" + scope + "\"]}", Map.of()))
          .as(scope)
          .isEqualTo(CapabilityCodes.EFFECT_SCOPE_INVALID);
    }
    assertThat(refusal(tool(), ENTRY, "{\"filesystem.read\": [\"donn\\u00e9es/\\ud83d\\ude00\"]}", Map.of())).isEqualTo("ACCEPTED");
  }

  @Test
  void refusesEveryServiceProviderRegistrationAndModuleOpens() throws IOException {
    assertThat(refusal(with(tool(), "META-INF/services/java.sql.Driver", "com.example.Tool")))
        .isEqualTo(CapabilityCodes.PACKAGE_SERVICE_PROVIDER);
    assertThat(refusal(with(tool(), "META-INF/services/java.nio.file.spi.FileSystemProvider", "com.example.Tool")))
        .isEqualTo(CapabilityCodes.PACKAGE_SERVICE_PROVIDER);

    String runnable = "package a; public final class R implements Runnable { public void run() {} }";
    Map<String, byte[]> provides =
        compile(Map.of("module-info.java", "module m { provides java.lang.Runnable with a.R; }", "a/R.java", runnable));
    Map<String, byte[]> opens = compile(Map.of("module-info.java", "module m { opens a; }", "a/R.java", runnable));
    Map<String, byte[]> plain = compile(Map.of("module-info.java", "module m { exports a; }", "a/R.java", runnable));
    Map<String, byte[]> jar = new LinkedHashMap<>(tool());
    jar.put("module-info.class", provides.get("module-info.class"));
    assertThat(refusal(jar)).isEqualTo(CapabilityCodes.PACKAGE_SERVICE_PROVIDER);
    jar.put("module-info.class", opens.get("module-info.class"));
    assertThat(refusal(jar)).isEqualTo(CapabilityCodes.PACKAGE_MODULE_OPENS);
    jar.put("module-info.class", plain.get("module-info.class"));
    assertThat(refusal(jar)).isEqualTo("ACCEPTED");
  }

  @Test
  void refusesClassesAndEntryClassesInPlatformOrHostNamespaces() throws IOException {
    assertThat(refusal(tool(), "java.lang.Tool", "{}", Map.of())).isEqualTo(CapabilityCodes.PACKAGE_RESERVED_NAMESPACE);
    assertThat(refusal(tool(), "dev.capability.capability.runtime.Tool", "{}", Map.of()))
        .isEqualTo(CapabilityCodes.PACKAGE_RESERVED_NAMESPACE);
    for (String pkg : List.of("javax.evil", "jdk.evil", "sun.evil", "com.sun.evil", "dev.capability.evil")) {
      String path = pkg.replace('.', '/') + "/Tool.java";
      Map<String, byte[]> jar = new LinkedHashMap<>(tool());
      jar.putAll(compile(Map.of(path, TestPackages.capabilitySource(pkg + ".Tool", "", "return \"{}\";"))));
      assertThat(refusal(jar)).as(pkg).isEqualTo(CapabilityCodes.PACKAGE_RESERVED_NAMESPACE);
      assertThat(refusal(jar, pkg + ".Tool", "{}", Map.of())).as(pkg).isEqualTo(CapabilityCodes.PACKAGE_RESERVED_NAMESPACE);
    }
    assertThat(refusal(with(tool(), "java/lang/String.class", "not even a class"))).isEqualTo(CapabilityCodes.PACKAGE_RESERVED_NAMESPACE);
  }

  @Test
  void refusesTheOpenApiInvokerClassWhenTheHostHasNoCopyOfIt() throws IOException {
    // capability-openapi, which holds the invoker, is not on this module's class path: no copy to
    // compare with, so the class is one more class in the host's namespace. (capability-openapi's
    // InvokerPackageContentsTest shows it accepted byte for byte where the host has it.)
    String invoker = "dev/capability/openapi/invoker/HttpOperationInvoker.class";
    assertThat(getClass().getClassLoader().getResource(invoker)).isNull();
    Map<String, byte[]> tool = tool();
    Map<String, byte[]> jar = new LinkedHashMap<>(tool);
    jar.put(invoker, tool.get("com/example/Tool.class"));
    assertThat(refusal(jar)).isEqualTo(CapabilityCodes.PACKAGE_RESERVED_NAMESPACE);
  }

  @Test
  void refusesASecondManifest() throws IOException {
    String manifest = "{\"name\": \"other\"}";
    assertThat(refusal(tool(), ENTRY, "{}", Map.of("META-INF/capability.json", manifest)))
        .isEqualTo(CapabilityCodes.PACKAGE_SECOND_MANIFEST);
    assertThat(refusal(with(tool(), "capability.json", manifest))).isEqualTo(CapabilityCodes.PACKAGE_SECOND_MANIFEST);
    assertThat(refusal(with(tool(), "META-INF/Capability.JSON", manifest))).isEqualTo(CapabilityCodes.PACKAGE_SECOND_MANIFEST);
  }

  @Test
  void refusesSignatureFilesSoNoJarIsPartiallySigned() throws IOException {
    assertThat(refusal(with(tool(), "META-INF/CAP.SF", "Signature-Version: 1.0\r\n\r\n"))).isEqualTo(CapabilityCodes.PACKAGE_SIGNED_JAR);
    assertThat(refusal(with(tool(), "meta-inf/cap.rsa", "x"))).isEqualTo(CapabilityCodes.PACKAGE_SIGNED_JAR);
    assertThat(refusal(with(tool(), "META-INF/SIG-CAP", "x"))).isEqualTo(CapabilityCodes.PACKAGE_SIGNED_JAR);
  }

  @Test
  void refusesClassFilesNewerThanThisJvmOrUsingPreviewFeatures() throws IOException {
    Map<String, byte[]> newer = new LinkedHashMap<>(tool());
    byte[] tool = newer.get("com/example/Tool.class").clone();
    tool[6] = (byte) ((RUNTIME_MAJOR + 1) >> 8);
    tool[7] = (byte) (RUNTIME_MAJOR + 1);
    newer.put("com/example/Tool.class", tool);
    assertThat(refusal(newer)).isEqualTo(CapabilityCodes.CLASS_FILE_TOO_NEW);

    byte[] preview = tool.clone();
    preview[6] = 0;
    preview[7] = 61;
    preview[4] = (byte) 0xFF;
    preview[5] = (byte) 0xFF;
    newer.put("com/example/Tool.class", preview);
    assertThat(refusal(newer)).isEqualTo(CapabilityCodes.CLASS_FILE_TOO_NEW);
  }
}
