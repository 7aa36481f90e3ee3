package dev.capability.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.TestPackages;
import dev.capability.capability.runtime.support.ManifestRules;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.openapi.invoker.HttpOperationInvoker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's inspection accepts the host's HTTP invoker in a package only byte for byte
 * identical to the host's own copy, which it finds here because this module is on the class path.
 */
class InvokerPackageContentsTest {
  private static final String ENTRY = "com.example.Tool";
  private static final String INVOKER = HttpOperationInvoker.class.getName().replace('.', '/') + ".class";

  @TempDir Path work;

  @Test
  void acceptsTheHostsOpenApiInvokerOnlyByteForByte() throws IOException {
    byte[] own;
    try (InputStream in = HttpOperationInvoker.class.getResourceAsStream("/" + INVOKER)) {
      own = in.readAllBytes();
    }
    Map<String, byte[]> jar = new LinkedHashMap<>(tool());
    jar.put(INVOKER, own);
    assertThat(refusal(jar)).isNotEqualTo(CapabilityCodes.PACKAGE_RESERVED_NAMESPACE);
    byte[] altered = own.clone();
    altered[altered.length - 1] ^= 1;
    jar.put(INVOKER, altered);
    assertThat(refusal(jar)).isEqualTo(CapabilityCodes.PACKAGE_RESERVED_NAMESPACE);
  }

  private Map<String, byte[]> tool() throws IOException {
    return TestPackages.classes(work, Map.of("com/example/Tool.java", TestPackages.capabilitySource(ENTRY, "", "return \"{}\";")));
  }

  private String refusal(Map<String, byte[]> jarEntries) throws IOException {
    byte[] jar = zip(jarEntries);
    Path root = Files.createTempDirectory(work, "package");
    Files.createDirectories(root.resolve("lib"));
    Files.write(root.resolve("lib/cap.jar"), jar);
    Files.writeString(root.resolve("capability.json"), TestPackages.manifest(ManifestRules.integrity(jar), ENTRY, "{}"));
    try {
      CapabilityPackages.open(root);
      return "ACCEPTED";
    } catch (CapabilityException e) {
      return e.code();
    }
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
}
