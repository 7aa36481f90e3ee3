package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.capability.runtime.internal.exec.CapabilityHost;
import dev.capability.capability.runtime.internal.exec.HostRequest;
import dev.capability.capability.runtime.internal.manifest.Integrity;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
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

  private HostRequest request(Path module, String integrity) {
    return new HostRequest(module.toString(), integrity, ENTRY, "{\"text\":\"hi\"}", List.of(work), List.of(), false, false, false);
  }

  private Child run(HostRequest request) throws IOException, InterruptedException {
    return run(request.encode());
  }

  private Child run(byte[] request) throws IOException, InterruptedException {
    return run(request, List.of());
  }

  private Child run(byte[] request, List<String> jvmOptions) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>(List.of(java.toString()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), CapabilityHost.class.getName()));
    Process process = new ProcessBuilder(command).start();
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(request);
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
    byte[] good = request(module, Integrity.of(Files.readAllBytes(module))).encode();
    // The last path entry is the readable work directory: replace it by a relative one of the same length.
    byte[] relative = good.clone();
    byte[] workBytes = work.toString().getBytes(StandardCharsets.UTF_8);
    int at = indexOf(relative, workBytes);
    relative[at] = 'x';

    Child child = run(relative);

    assertThat(child.status()).isEqualTo(2);
    assertThat(child.stdout()).isEmpty();
    assertThat(child.stderr()).contains("readable").contains("absolute");
  }

  @Test
  void refusesTruncatedAndTrailingRequestsAndJson() throws Exception {
    Path module = module("return \"{}\";");
    byte[] good = request(module, Integrity.of(Files.readAllBytes(module))).encode();

    assertThat(run(Arrays.copyOf(good, good.length - 1)).stderr()).contains("truncated");
    assertThat(run(Arrays.copyOf(good, good.length + 1)).stderr()).contains("1 bytes follow the request");
    assertThat(run("{\"module\":\"/x\"}".getBytes(StandardCharsets.UTF_8)).stderr()).contains("does not start with CKH2");
  }

  @Test
  void theResponseEscapesWhatTheCapabilityReturns() throws Exception {
    Path module = module("return \"a\" + (char) 0 + \"\\n\\\"\\\\\" + (char) 0xD800;");

    Child child = run(request(module, Integrity.of(Files.readAllBytes(module))));

    assertThat(child.status()).as(child.stderr()).isZero();
    JsonNode response = JSON.readTree(child.stdout());
    assertThat(response.get("output").asText()).isEqualTo("a" + (char) 0 + "\n\"\\" + (char) 0xD800);
  }

  @Test
  void aCapabilityNotGrantedProcessSpawnCannotStartAProgramEvenByReflection() throws Exception {
    Path pwned = work.resolve("pwned");
    Path module = module(TestPackages.reflectiveSpawn(pwned.toString()));

    Child child = run(request(module, Integrity.of(Files.readAllBytes(module))));

    assertThat(child.status()).as(child.stderr()).isZero();
    JsonNode response = JSON.readTree(child.stdout());
    assertThat(response.get("output").isNull()).isTrue();
    assertThat(response.get("failure").asText()).contains("refused: java.io.IOException").contains("Operation not permitted");
    assertThat(pwned).doesNotExist();
  }

  @Test
  void aCapabilityGrantedProcessSpawnStartsPrograms() throws Exception {
    Path pwned = work.resolve("pwned");
    Path module = module(TestPackages.reflectiveSpawn(pwned.toString()));
    HostRequest mayStart =
        new HostRequest(module.toString(), Integrity.of(Files.readAllBytes(module)), ENTRY, "{}", List.of(work), List.of(), false, false, true);

    Child child = run(mayStart);

    assertThat(child.status()).as(child.stderr()).isZero();
    assertThat(JSON.readTree(child.stdout()).get("output").asText()).isEqualTo("{\"spawned\":0}");
    assertThat(pwned).hasContent("pwned");
  }

  @Test
  void refusesTheRequestBeforeTheCapabilityLoadsWhenItCannotForbidProgramStarts() throws Exception {
    Path loaded = work.resolve("loaded");
    byte[] jar =
        TestPackages.jar(
            work,
            Map.of(ENTRY, TestPackages.capabilitySource(ENTRY, "try { java.nio.file.Files.createFile(java.nio.file.Path.of(\"" + loaded
                + "\")); } catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }", "return \"{}\";")),
            null,
            Map.of());
    Path module = work.resolve("cap.jar");
    Files.write(module, jar);
    // JNA cannot load its own native library: no libseccomp filter can be built in that JVM.
    List<String> withoutJna = List.of("-Djna.boot.library.path=" + work.resolve("nothing-here"), "-Djna.nosys=true", "-Djna.nounpack=true");

    Child child = run(request(module, Integrity.of(jar)).encode(), withoutJna);

    assertThat(child.status()).as(child.stderr()).isEqualTo(2);
    assertThat(child.stdout()).isEmpty();
    assertThat(child.stderr()).contains("cannot take the power to start programs from this JVM").contains("SECCOMP_UNAVAILABLE");
    assertThat(loaded).as("the capability's class was never initialized").doesNotExist();
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    for (int i = haystack.length - needle.length; i >= 0; i--) {
      if (Arrays.equals(Arrays.copyOfRange(haystack, i, i + needle.length), needle)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }
}
