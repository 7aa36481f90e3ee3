package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.NetworkMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class BwrapArgumentsProperties {
  private static final SandboxLayout.Plan PLAN =
      new SandboxLayout.Plan(
          List.of(
              MountOp.readOnlyBind(Path.of("/usr"), Path.of("/usr")),
              MountOp.tmpfs(Path.of("/tmp"), OptionalLong.of(4096)),
              MountOp.remountReadOnly(Path.of("/"))),
          new SandboxLayout.Placeholders(
              new PlaceholderJournal(Path.of("/nonexistent")), List.of()));

  @Property
  void theArgumentFileDecodesToExactlyTheOptions(@ForAll("strings") List<String> options) {
    byte[] encoded = BwrapArguments.encode(options, StandardCharsets.UTF_8);

    assertThat(Sandboxes.split(encoded)).containsExactlyElementsOf(options);
  }

  @Property
  void everyVariableIsSetAfterTheEnvironmentIsCleared(
      @ForAll("environments") Map<String, String> environment) {
    List<String> options =
        BwrapArguments.options(
            SandboxFlags.ALL,
            NetworkMode.NONE,
            "sandbox",
            PLAN,
            Map.of(),
            java.util.OptionalInt.empty(),
            Path.of("/w"),
            environment);

    int clear = options.indexOf("--clearenv");
    assertThat(clear).isNotNegative();
    for (Map.Entry<String, String> variable : environment.entrySet()) {
      int at = options.indexOf(variable.getKey());
      assertThat(at).isGreaterThan(clear);
      assertThat(options.get(at - 1)).isEqualTo("--setenv");
      assertThat(options.get(at + 1)).isEqualTo(variable.getValue());
    }
  }

  @Property
  void theLauncherArgvNeverCarriesTheOptions(
      @ForAll("environments") Map<String, String> environment) {
    HostTools tools =
        new HostTools(
            Path.of("/usr/bin/bwrap"),
            new BwrapVersion(0, 8, 0),
            Path.of("/usr/bin/flock"),
            Path.of("/usr/bin/env"),
            java.util.Optional.of(Path.of("/usr/bin/setpriv")),
            java.util.Optional.empty(),
            java.util.Optional.empty());
    List<String> argv =
        LauncherCommand.build(
            "run",
            tools,
            new SandboxIdentity(65534, 65534, true),
            ResourceLimits.NONE,
            Path.of("/run/args"),
            3,
            Path.of("/usr/bin/true"),
            List.of(),
            false);

    for (String value : environment.values()) {
      if (value.length() > 3) {
        assertThat(argv).noneMatch(a -> a.contains(value));
      }
    }
  }

  @Provide
  Arbitrary<List<String>> strings() {
    return Arbitraries.strings()
        .withCharRange('\u0001', '\uD7FF')
        .ofMaxLength(20)
        .list()
        .ofMaxSize(12);
  }

  @Provide
  Arbitrary<Map<String, String>> environments() {
    Arbitrary<String> names =
        Arbitraries.strings()
            .withCharRange('A', 'Z')
            .ofMinLength(1)
            .ofMaxLength(8)
            .map(n -> "V_" + n);
    Arbitrary<String> values =
        Arbitraries.strings()
            .withCharRange('\u0001', '\u00FF')
            .ofMaxLength(16)
            .map(v -> "val:" + v);
    return Arbitraries.maps(names, values).ofMaxSize(6).map(LinkedHashMap::new);
  }
}
