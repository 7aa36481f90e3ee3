package dev.capability.backend.process.internal;

import static dev.capability.backend.process.internal.CommandFixtures.nulSeparated;
import static dev.capability.backend.process.internal.CommandFixtures.script;
import static dev.capability.backend.process.internal.CommandFixtures.sessionBackend;
import static dev.capability.backend.process.internal.CommandFixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/** Whatever the strings, the command receives exactly the argv and environment of the spec. */
class ArgvProperties {
  private static Path dir;
  private static PinnedExecutable printArgv;

  @BeforeContainer
  static void writeScript() throws IOException {
    dir = Files.createTempDirectory("argv-properties");
    printArgv = script(dir, "cat /proc/$$/cmdline; printf '%s' \"$VALUE\"");
  }

  @AfterContainer
  static void removeScript() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }

  @Property(tries = 40)
  void argumentsAndEnvironmentArriveUnchanged(
      @ForAll("arguments") List<String> arguments, @ForAll("strings") String value) {
    List<String> all = new ArrayList<>(arguments);
    all.add(value);
    Assume.that(all.stream().allMatch(ArgvProperties::encodable));

    LaunchResult result =
        sessionBackend()
            .launch(
                spec(printArgv, dir, "argv")
                    .arguments(arguments)
                    .environment(Map.of("VALUE", value))
                    .build());

    List<String> expected = new ArrayList<>(List.of("/bin/sh", printArgv.execPath()));
    expected.addAll(arguments);
    byte[] out = result.stdout().bytes();
    assertThat(nulSeparated(out)).isEqualTo(expected);
    assertThat(result.stdout().text()).endsWith(value);
  }

  @Provide
  Arbitrary<List<String>> arguments() {
    return strings().list().ofMaxSize(6);
  }

  @Provide
  Arbitrary<String> strings() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withChars(" \t\n'\"\\$`*?;|&<>(){}[]!#~=-").ofMaxLength(12),
        Arbitraries.strings().withCharRange('\u0001', '\u007f').ofMaxLength(12),
        Arbitraries.strings().withCharRange('\u0080', '\ud7ff').ofMaxLength(6));
  }

  private static boolean encodable(String s) {
    return LaunchSpec.processCharsets().stream().allMatch(c -> c.newEncoder().canEncode(s));
  }
}
