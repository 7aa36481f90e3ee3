package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImportOpenApiCommandTest {
  private static final String DOCUMENT = """
      {"openapi": "3.1.0", "info": {"title": "Notes", "version": "1.0.0"},
       "servers": [{"url": "https://notes.example.com/api"}],
       "paths": {"/notes": {"post": {"operationId": "addNote",
          "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "properties": {"text": {"type": "string"}}}}}}}}}}
      """;

  @Test
  void writesOneManifestPerOperationAndInspectRefusesItAsAPackage(@TempDir Path temp) throws IOException {
    Path file = Files.writeString(temp.resolve("openapi.json"), DOCUMENT);
    Path out = temp.resolve("out");

    CliRunner.Outcome outcome = CliRunner.run("import-openapi", file.toString(), "--out", out.toString(), "--json");

    assertThat(outcome.exitCode()).as(outcome.err() + outcome.out()).isZero();
    assertThat(outcome.out()).contains("\"name\":\"add-note\"").contains("network.connect(notes.example.com:443)");
    assertThat(Files.readString(out.resolve("add-note/capability.json"))).contains("\"network.connect\"");
    CliRunner.Outcome inspect = CliRunner.run("inspect", out.resolve("add-note").toString(), "--json");
    assertThat(inspect.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(inspect.out()).contains("MANIFEST_MISSING_FIELD");
  }

  @Test
  void aLoopbackServerIsRefusedWithExitThree(@TempDir Path temp) throws IOException {
    Path file = Files.writeString(temp.resolve("openapi.json"), DOCUMENT.replace("https://notes.example.com/api", "https://127.0.0.1:8443"));

    CliRunner.Outcome outcome = CliRunner.run("import-openapi", file.toString(), "--json");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(outcome.out()).contains("OPENAPI_SERVER_REFUSED");
    assertThat(CliRunner.run("import-openapi", file.toString(), "--allow-loopback").exitCode()).isZero();
  }
}
