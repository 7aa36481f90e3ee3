package dev.capability.capability.runtime.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.internal.scan.ClassFileReader;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.Adler32;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The class names a class file refers to, read from its bytes, as the host class path follows them. */
class ReferencedClassNamesTest {
  /** Types it names only in places without a class entry of their own. */
  @SuppressWarnings("unused")
  static final class Fixture {
    private Adler32 onlyAFieldType;

    static void onlyAParameterType(LongAdder adder) {}

    static Object onlyAnArrayElement() {
      return new CRC32C[0];
    }
  }

  private static java.util.Set<String> names(byte[] classFile) {
    return ClassFileReader.read(classFile, "fixture").referencedClassNames();
  }

  private static byte[] classFile(Class<?> type) throws IOException {
    try (InputStream in = type.getClassLoader().getResourceAsStream(type.getName().replace('.', '/') + ".class")) {
      return in.readAllBytes();
    }
  }

  @Test
  void namesTheTypesOfItsOwnMembersAndArrayElements() throws IOException {
    assertThat(names(classFile(Fixture.class)))
        .contains("java/util/zip/Adler32", "java/util/concurrent/atomic/LongAdder", "java/util/zip/CRC32C", "java/lang/Object")
        .noneMatch(name -> name.startsWith("[") || name.endsWith(";"));
  }

  @Test
  void namesTheTypesInTheDescriptorsOfMembersItCalls() throws IOException {
    // CapabilityHost calls Lifecycle.run(Capability, String, GrantedContext, boolean, boolean).
    assertThat(names(classFile(CapabilityHost.class)))
        .contains(Lifecycle.class.getName().replace('.', '/'), GrantedContext.class.getName().replace('.', '/'));
  }

  @Test
  void refusesBytesThatAreNoClassFile() throws IOException {
    byte[] cut = classFile(CapabilityHost.class);
    byte[] truncated = java.util.Arrays.copyOf(cut, cut.length / 2);
    assertThatThrownBy(() -> names(new byte[] {1, 2, 3, 4}))
        .isInstanceOf(PackageRefusedException.class)
        .hasMessageContaining("class file")
        .extracting(e -> ((PackageRefusedException) e).code())
        .isEqualTo(CapabilityCodes.CLASS_FILE_INVALID);
    assertThatThrownBy(() -> names(truncated)).isInstanceOf(PackageRefusedException.class);
  }
}
