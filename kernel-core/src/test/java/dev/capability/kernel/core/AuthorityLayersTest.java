package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AuthorityLayersTest {

  private static final String PHASE = """
      {
        "version": 1,
        "kind": "phase",
        "description": "green: only tests and their fixtures change",
        "executables": ["mvn", "git"],
        "network": "none",
        "projectWrites": "scoped",
        "writeScopes": ["src/test/**", "target/**"]
      }
      """;

  @TempDir Path temp;

  private Path write(String name, String json) throws IOException {
    return Files.writeString(temp.toRealPath().resolve(name), json);
  }

  @Test
  void readsEveryMemberOfALayerFile() throws IOException {
    Path file = write("phase.json", PHASE);

    AuthorityLayer layer = AuthorityLayers.load(Kind.PHASE, file);

    assertThat(layer.kind()).isEqualTo(Kind.PHASE);
    assertThat(layer.source()).isEqualTo(file.toString());
    assertThat(layer.executables()).contains(Set.of("mvn", "git"));
    assertThat(layer.network()).contains(Set.of(NetworkMode.NONE));
    assertThat(layer.projectWrites()).contains(ProjectWriteMode.SCOPED);
    assertThat(layer.writeScopes()).contains(List.of("src/test/**", "target/**"));
  }

  @Test
  void anEmptyLayerRestrictsNothing() {
    AuthorityLayer layer = AuthorityLayers.parse(Kind.CORRECTION, "{\"version\": 1, \"kind\": \"correction\"}", "c");

    assertThat(layer.executables()).isEmpty();
    assertThat(layer.network()).isEmpty();
    assertThat(layer.projectWrites()).isEmpty();
    assertThat(layer.writeScopes()).isEmpty();
  }

  @Test
  void loadsTheGivenFilesInLayerOrder() throws IOException {
    Path contract = write("contract.json", "{\"version\": 1, \"kind\": \"project-contract\", \"network\": \"host\"}");
    Path correction = write("correction.json", "{\"version\": 1, \"kind\": \"correction\", \"writeScopes\": [\"src/A.java\"]}");

    List<AuthorityLayer> layers = AuthorityLayers.load(contract, null, correction);

    assertThat(layers).extracting(AuthorityLayer::kind).containsExactly(Kind.PROJECT_CONTRACT, Kind.CORRECTION);
    assertThat(AuthorityLayers.load(null, null, null)).isEmpty();
  }

  @Test
  void refusesAPathWithDotDotOrATildeWithoutResolvingIt() throws IOException {
    Files.createDirectories(temp.resolve("a"));
    Path file = write("phase.json", PHASE);

    assertCode(() -> AuthorityLayers.load(Kind.PHASE, temp.resolve("a/../phase.json")), "LAYER_PATH_INVALID", "..");
    assertCode(() -> AuthorityLayers.load(Kind.PHASE, temp.resolve("./phase.json")), "LAYER_PATH_INVALID", ".");
    assertCode(() -> AuthorityLayers.load(Kind.PHASE, Path.of("~/phase.json")), "LAYER_PATH_INVALID", "~");
    assertThat(AuthorityLayers.load(Kind.PHASE, file).kind()).isEqualTo(Kind.PHASE);
  }

  @Test
  void refusesAPathThroughASymbolicLink() throws IOException {
    Path real = Files.createDirectories(temp.resolve("real"));
    Files.writeString(real.resolve("phase.json"), PHASE);
    Path linkedDirectory = Files.createSymbolicLink(temp.resolve("linked"), real);
    Path linkedFile = Files.createSymbolicLink(temp.resolve("phase-link.json"), real.resolve("phase.json"));

    assertCode(() -> AuthorityLayers.load(Kind.PHASE, linkedDirectory.resolve("phase.json")), "LAYER_PATH_INVALID", "symbolic link");
    assertCode(() -> AuthorityLayers.load(Kind.PHASE, linkedFile), "LAYER_PATH_INVALID", "symbolic link");
  }

  @Test
  void refusesWhatIsNotARegularFileWithoutBlocking() throws IOException, InterruptedException {
    Path fifo = temp.resolve("fifo.json");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();

    assertCode(() -> AuthorityLayers.load(Kind.PHASE, fifo), "LAYER_UNREADABLE", "not a regular file");
    assertCode(() -> AuthorityLayers.load(Kind.PHASE, temp), "LAYER_UNREADABLE", "not a regular file");
    assertCode(() -> AuthorityLayers.load(Kind.PHASE, temp.resolve("missing.json")), "LAYER_NOT_FOUND", "does not exist");
  }

  @Test
  void refusesAFileTooLargeOrNotUtf8() throws IOException {
    Path large = write("large.json", "{\"version\": 1, \"kind\": \"phase\", \"description\": \"" + "x".repeat(256 * 1024) + "\"}");
    Path latin1 = Files.write(temp.resolve("latin1.json"), "{\"version\": 1, \"kind\": \"phase\", \"description\": \"caf\u00e9\"}"
        .getBytes(StandardCharsets.ISO_8859_1));

    assertCode(() -> AuthorityLayers.load(Kind.PHASE, large), "LAYER_UNREADABLE", "bytes");
    assertCode(() -> AuthorityLayers.load(Kind.PHASE, latin1), "LAYER_UNREADABLE", "UTF-8");
  }

  @ParameterizedTest(name = "[{index}] {1}: {2}")
  @CsvSource(delimiter = '|', value = {
      "{\"version\": 1, \"kind\": \"phase\", \"kind\": \"phase\"}                | LAYER_INVALID         | Duplicate field",
      "{\"version\": 1, \"kind\": \"phase\"} {}                                   | LAYER_INVALID         | not valid JSON",
      "{\"version\": 1, /* c */ \"kind\": \"phase\"}                              | LAYER_INVALID         | not valid JSON",
      "[]                                                                          | LAYER_INVALID         | a layer is a JSON object",
      "''                                                                          | LAYER_INVALID         | empty",
      "{\"kind\": \"phase\"}                                                       | LAYER_INVALID         | /version",
      "{\"version\": \"1\", \"kind\": \"phase\"}                                   | LAYER_INVALID         | /version",
      "{\"version\": 1.0, \"kind\": \"phase\"}                                     | LAYER_INVALID         | /version",
      "{\"version\": 2, \"kind\": \"phase\"}                                       | LAYER_INVALID         | /version",
      "{\"version\": 1}                                                            | LAYER_INVALID         | /kind",
      "{\"version\": 1, \"kind\": \"correction\"}                                  | LAYER_INVALID         | given as the phase",
      "{\"version\": 1, \"kind\": \"operator\"}                                    | LAYER_INVALID         | given as the phase",
      "{\"version\": 1, \"kind\": \"phase\", \"scopes\": []}                       | LAYER_INVALID         | /scopes: unknown property",
      "{\"version\": 1, \"kind\": \"phase\", \"network\": \"internet\"}            | LAYER_INVALID         | /network",
      "{\"version\": 1, \"kind\": \"phase\", \"network\": \"NONE\"}                | LAYER_INVALID         | /network",
      "{\"version\": 1, \"kind\": \"phase\", \"projectWrites\": \"read_only\"}     | LAYER_INVALID         | /projectWrites",
      "{\"version\": 1, \"kind\": \"phase\", \"executables\": \"git\"}             | LAYER_INVALID         | /executables",
      "{\"version\": 1, \"kind\": \"phase\", \"executables\": [\"git\", \"git\"]}  | LAYER_INVALID         | /executables/1",
      "{\"version\": 1, \"kind\": \"phase\", \"executables\": [\"bin/git\"]}       | LAYER_INVALID         | /executables/0",
      "{\"version\": 1, \"kind\": \"phase\", \"writeScopes\": []}                  | LAYER_INVALID         | read-only",
      "{\"version\": 1, \"kind\": \"phase\", \"writeScopes\": [null]}              | LAYER_INVALID         | /writeScopes/0",
      "{\"version\": 1, \"kind\": \"phase\", \"writeScopes\": [\"src/**\", \"../x\"]} | SCOPE_PATTERN_INVALID | /writeScopes/1",
      "{\"version\": 1, \"kind\": \"phase\", \"writeScopes\": [\"/etc/**\"]}       | SCOPE_PATTERN_INVALID | absolute",
      "{\"version\": 1, \"kind\": \"phase\", \"writeScopes\": [\"~/x\"]}           | SCOPE_PATTERN_INVALID | ~",
      "{\"version\": 1, \"kind\": \"phase\", \"writeScopes\": [\"a\\u0000b\"]}     | SCOPE_PATTERN_INVALID | control",
      "{\"version\": 1, \"kind\": \"phase\", \"projectWrites\": \"read-only\", \"writeScopes\": [\"a\"]} | LAYER_INVALID | read-only",
      "{\"version\": 1, \"kind\": \"phase\", \"description\": 5}                   | LAYER_INVALID         | /description",
  })
  void refusesMalformedLayersWithACodeAndAPointer(String json, String code, String fragment) {
    assertCode(() -> AuthorityLayers.parse(Kind.PHASE, json, "phase.json"), code, fragment);
  }

  private static void assertCode(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String code, String fragment) {
    AuthorityException e = catchThrowableOfType(AuthorityException.class, call);
    assertThat(e).as("expected %s", code).isNotNull();
    assertThat(e.code()).as(e.getMessage()).isEqualTo(code);
    assertThat(e.getMessage()).contains(fragment);
  }
}
