package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capability.capability.runtime.internal.exec.CapabilityHost;
import dev.capability.capability.runtime.internal.manifest.Integrity;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the capability host as a real child JVM, as the child-JVM executor does. */
class CapabilityHostTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ENTRY = "com.example.Tool";
  @TempDir Path work;

  private record Child(int status, String stdout, String stderr) {}

  private Path module(String executeBody) throws IOException {
    byte[] jar = TestPackages.jar(work, Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "", executeBody)), null, Map.of());
    Path file = work.resolve("cap.jar");
    Files.write(file, jar);
    return file;
  }

  private ObjectNode request(Path module, String integrity) {
    ObjectNode request = JSON.createObjectNode();
    request.put("module", module.toString()).put("integrity", integrity).put("entry", ENTRY).put("input", "{\"text\":\"hi\"}");
    request.putArray("readable").add(work.toString());
    request.putArray("writable");
    return request.put("verify", false).put("rollback", false);
  }

  private Child run(ObjectNode request) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"), CapabilityHost.class.getName()))
            .start();
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(JSON.writeValueAsBytes(request));
    }
    String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Child(process.waitFor(), stdout, stderr);
  }

  @Test
  void runsTheCapabilityAndKeepsItsPrintingOutOfTheResponse() throws Exception {
    Path module =
        module(
            "System.out.println(\"{\\\"output\\\":\\\"forged\\\"}\"); context.log(\"read \" + context.readablePaths());"
                + " return \"{\\\"got\\\":\" + inputJson + \"}\";");

    Child child = run(request(module, Integrity.of(Files.readAllBytes(module))));

    assertThat(child.status()).isZero();
    JsonNode response = JSON.readTree(child.stdout());
    assertThat(response.get("output").asText()).isEqualTo("{\"got\":{\"text\":\"hi\"}}");
    assertThat(response.get("failure").isNull()).isTrue();
    assertThat(response.get("hooks").get(0).get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(child.stderr()).contains("forged").contains("read [" + work + "]");
  }

  @Test
  void aThrowingCapabilityIsReportedAsAFailureNotACrash() throws Exception {
    Path module = module("throw new IllegalStateException(\"boom\");");

    Child child = run(request(module, Integrity.of(Files.readAllBytes(module))));

    assertThat(child.status()).isZero();
    JsonNode response = JSON.readTree(child.stdout());
    assertThat(response.get("output").isNull()).isTrue();
    assertThat(response.get("failure").asText()).contains("boom");
  }

  @Test
  void refusesAModuleThatChangedAfterVerification() throws Exception {
    Path module = module("return \"{}\";");
    String integrity = Integrity.of(Files.readAllBytes(module));
    Files.write(module, new byte[] {'P', 'K'}, StandardOpenOption.APPEND);

    Child child = run(request(module, integrity));

    assertThat(child.status()).isEqualTo(2);
    assertThat(child.stdout()).isEmpty();
    assertThat(child.stderr()).contains("does not match its integrity");
  }

  @Test
  void refusesARequestWithRelativeGrantedPaths() throws Exception {
    Path module = module("return \"{}\";");
    ObjectNode request = request(module, Integrity.of(Files.readAllBytes(module)));
    request.putArray("writable").add("relative/dir");

    Child child = run(request);

    assertThat(child.status()).isEqualTo(2);
    assertThat(child.stdout()).isEmpty();
    assertThat(child.stderr()).contains("writable").contains("absolute");
  }
}
