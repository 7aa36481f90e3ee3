package dev.capability.capability.runtime.internal.manifest;

import static dev.capability.capability.runtime.internal.manifest.ManifestParserTest.code;
import static dev.capability.capability.runtime.internal.manifest.ManifestParserTest.manifest;
import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;

class ManifestParserProperties {
  @Property(tries = 200)
  void anyUnknownTopLevelFieldIsRefused(@ForAll @AlphaChars @StringLength(min = 1, max = 12) String field) {
    String text = manifest(",\"" + field + "\":1", "1.0.0", "./lib/a.jar", "{}");
    String expected =
        java.util.Set.of("name", "version", "description", "entry", "modules", "effects", "input", "output", "hooks").contains(field)
            ? "MANIFEST_DUPLICATE_KEY"
            : "MANIFEST_UNKNOWN_FIELD";
    assertThat(code(text)).isEqualTo(expected);
  }

  @Property(tries = 200)
  void parsingNeverThrowsAnythingButACodedRefusal(@ForAll @StringLength(max = 200) String text) {
    assertThat(code(text)).isNotNull();
  }
}
