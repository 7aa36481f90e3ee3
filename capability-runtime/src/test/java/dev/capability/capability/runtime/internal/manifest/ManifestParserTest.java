package dev.capability.capability.runtime.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.kernel.api.CapabilityException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ManifestParserTest {
  static final String SRI = Integrity.of(new byte[] {1});

  static String manifest(String extra, String version, String module, String effects) {
    return "{\"name\":\"demo\",\"version\":\"" + version + "\",\"entry\":{\"module\":\"" + module + "\",\"class\":\"a.B\"},"
        + "\"modules\":{\"" + module + "\":\"" + SRI + "\"},\"effects\":" + effects + ","
        + "\"input\":{\"type\":\"object\"},\"output\":{\"type\":\"object\"}" + extra + "}";
  }

  private static String valid() {
    return manifest("", "1.0.0", "./lib/a.jar", "{}");
  }

  static String code(String text) {
    return code(text.getBytes(StandardCharsets.UTF_8));
  }

  static String code(byte[] bytes) {
    try {
      ManifestParser.parse(bytes);
      return "ACCEPTED";
    } catch (PackageRefusedException e) {
      return e.code();
    } catch (CapabilityException e) {
      return e.code();
    }
  }

  @Test
  void acceptsAValidManifest() {
    assertThat(code(valid())).isEqualTo("ACCEPTED");
  }

  @Test
  void refusesMalformedDocuments() {
    assertThat(code(valid().replace("{\"name\":\"demo\",", "{\"name\":\"demo\",\"name\":\"other\","))).isEqualTo("MANIFEST_DUPLICATE_KEY");
    assertThat(code(valid().replace("}", ",\"extra\":1}").replaceFirst(",\"extra\":1}", "}"))).isIn("MANIFEST_UNKNOWN_FIELD", "MANIFEST_INVALID");
    assertThat(code(manifest(",\"extra\":1", "1.0.0", "./lib/a.jar", "{}"))).isEqualTo("MANIFEST_UNKNOWN_FIELD");
    assertThat(code("// comment\n" + valid())).isEqualTo("MANIFEST_INVALID");
    assertThat(code(valid() + " {}")).isEqualTo("MANIFEST_INVALID");
    byte[] text = valid().getBytes(StandardCharsets.UTF_8);
    byte[] bom = new byte[text.length + 3];
    bom[0] = (byte) 0xEF;
    bom[1] = (byte) 0xBB;
    bom[2] = (byte) 0xBF;
    System.arraycopy(text, 0, bom, 3, text.length);
    assertThat(code(bom)).isEqualTo("MANIFEST_BOM");
    assertThat(code(new byte[] {'{', '"', (byte) 0xC3, '"', '}'})).isEqualTo("MANIFEST_ENCODING");
    assertThat(code("[".repeat(100) + "]".repeat(100))).isEqualTo("MANIFEST_TOO_DEEP");
    assertThat(code(" ".repeat(ManifestParser.MAX_BYTES + 1))).isEqualTo("MANIFEST_TOO_LARGE");
    assertThat(code("{\"name\":\"demo\"}")).isEqualTo("MANIFEST_MISSING_FIELD");
  }

  @ParameterizedTest
  @CsvSource({"^1.0.0", "~1.0.0", ">=1.0.0", "1.x", "1.0", "*", "1.0.0 || 2.0.0", "01.0.0"})
  void refusesVersionRanges(String version) {
    assertThat(code(manifest("", version, "./lib/a.jar", "{}"))).isEqualTo("MANIFEST_VERSION_INVALID");
  }

  @Test
  void refusesModulePathsThatEscapeOrAreNotRelative() {
    assertThat(code(manifest("", "1.0.0", "./../a.jar", "{}"))).isEqualTo("MODULE_PATH_ESCAPES");
    assertThat(code(manifest("", "1.0.0", ".//etc/a.jar", "{}"))).isEqualTo("MODULE_PATH_ESCAPES");
    assertThat(code(manifest("", "1.0.0", "lib/a.jar", "{}"))).isEqualTo("MANIFEST_ENTRY_INVALID");
  }

  @Test
  void refusesUnknownEffectsAndUnboundedScopes() {
    assertThat(code(manifest("", "1.0.0", "./lib/a.jar", "{\"filesystem.delete\":[\"x\"]}"))).isEqualTo("EFFECT_UNKNOWN");
    for (String scope : new String[] {"/", "..", "a/../..", "**", "data/*"}) {
      assertThat(code(manifest("", "1.0.0", "./lib/a.jar", "{\"filesystem.write\":[\"" + scope + "\"]}")))
          .as(scope)
          .isEqualTo("EFFECT_SCOPE_UNBOUNDED");
    }
    assertThat(code(manifest("", "1.0.0", "./lib/a.jar", "{\"network.connect\":[\"*:*\"]}"))).isEqualTo("EFFECT_SCOPE_UNBOUNDED");
    assertThat(code(manifest("", "1.0.0", "./lib/a.jar", "{\"network.connect\":[\"example.org\"]}"))).isEqualTo("EFFECT_SCOPE_INVALID");
    // An IPv6 grant the egress proxy could not read is refused here, not at run time.
    for (String literal : List.of("[::::]:443", "[1::2::3]:443", "[12345::1]:443", "[1:2:3:4:5:6:7:8:9]:443")) {
      assertThat(code(manifest("", "1.0.0", "./lib/a.jar", "{\"network.connect\":[\"" + literal + "\"]}"))).as(literal)
          .isEqualTo("EFFECT_SCOPE_INVALID");
    }
    assertThat(code(manifest("", "1.0.0", "./lib/a.jar", "{\"network.connect\":[\"[2001:db8::1]:443\"]}"))).isEqualTo("ACCEPTED");
    assertThat(code(manifest("", "1.0.0", "./lib/a.jar", "{\"process.spawn\":[\"git status\"]}"))).isEqualTo("EFFECT_SCOPE_INVALID");
    assertThat(code(manifest("", "1.0.0", "./lib/a.jar", "{\"process.spawn\":[\"/usr/bin/git status *\"]}"))).isEqualTo("ACCEPTED");
  }

  @Test
  void refusesSchemasThatReachOutside() {
    String remote = valid().replace("\"input\":{\"type\":\"object\"}", "\"input\":{\"$ref\":\"https://evil.example/schema.json\"}");
    assertThat(code(remote)).isEqualTo("MANIFEST_SCHEMA_INVALID");
  }
}
