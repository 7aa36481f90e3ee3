package dev.capability.cli.internal;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import dev.capability.backend.docker.SecondDockerDaemon;
import dev.capability.backend.docker.internal.DockerClients;
import dev.capability.backend.docker.internal.DockerEndpoint;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI against a remote Docker daemon, as docs/remote.md tells a user to run it: the real CLI
 * in a JVM of its own ({@code dev.capability.cli.Main}, as {@code bin/capability} starts it), with
 * only the standard variables {@code DOCKER_HOST=tcp://127.0.0.1:PORT}, {@code
 * DOCKER_TLS_VERIFY=1} and {@code DOCKER_CERT_PATH} pointing it at the test JVM's one second
 * {@code dockerd} ({@link SecondDockerDaemon}, TLS with client verification, its own data root, no
 * bind of this host). The commands run on the daemon's runtime image, which holds no C library, so
 * the command is this host's static busybox, shipped and run there as the kernel pinned it; a
 * dynamically linked program ({@code sed}) runs in the image the operator names with {@code
 * CAPABILITY_DOCKER_IMAGE}: the fixture's derived test image, which holds the host's programs and
 * their libraries (built once per JVM, on the first of these tests that asks for it).
 */
class RemoteDockerCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Static, so it runs in the runtime image; named canonically, as a policy's {@code path} must be. */
  private static Path busybox;
  /** Dynamically linked: it needs the C library, which only the derived test image holds. */
  private static Path sed;
  /** Prints README.md edited and writes the same line into the write scope. */
  private static final List<String> SED_EDIT = List.of("-e", "s/shipped/edited/w build/edited.md", "README.md");

  @TempDir static Path shared;
  private static Path home;
  private static Path policy;

  @TempDir Path temporary;

  @BeforeAll
  static void policy() throws IOException {
    home = Files.createDirectories(shared.resolve("home"));
    busybox = Path.of("/bin/busybox").toRealPath();
    sed = Path.of("/usr/bin/sed").toRealPath();
    policy = shared.resolve("policy.json");
    // Two exact argv: a copy into the write scope, and one out of it, which the container refuses;
    // and sed's edit.
    Files.writeString(
        policy,
        """
        {"version": 1, "network": "none", "projectWrites": "scoped", "writeScopes": ["build/**"],
         "executables": {"busybox": {"path": "%s", "exact": [["cp", "README.md", "build/copy.md"], ["cp", "README.md", "src/planted.md"]]},
                         "sed": {"path": "%s", "exact": [["%s", "%s", "%s"]]}}}
        """
            .formatted(busybox, sed, SED_EDIT.get(0), SED_EDIT.get(1), SED_EDIT.get(2)));
  }

  /** What the CLI printed and how it ended. */
  private record Run(int exitCode, String out, String err) {
    JsonNode json() throws IOException {
      return JSON.readTree(out);
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
  }

  /**
   * Runs {@code capability ARGS} in a JVM of its own whose environment holds only {@code PATH},
   * {@code LANG}, a {@code HOME} of its own and {@code docker}, as a user's shell would pass them.
   */
  private Run capability(Map<String, String> docker, String... args) throws IOException, InterruptedException {
    List<String> argv =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+DisableAttachMechanism",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.capability.cli.Main"));
    argv.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    builder.environment().clear();
    Map<String, String> environment = new LinkedHashMap<>();
    for (String name : List.of("PATH", "LANG")) {
      if (System.getenv(name) != null) {
        environment.put(name, System.getenv(name));
      }
    }
    environment.put("HOME", home.toString());
    environment.putAll(docker);
    builder.environment().putAll(environment);
    Path out = Files.createTempFile(temporary, "cli-", ".out");
    Path err = Files.createTempFile(temporary, "cli-", ".err");
    Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("capability " + String.join(" ", args) + " did not end within 10 minutes");
    }
    return new Run(
        process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  /** A committed repository with a README, a source directory and the write scope's root. */
  private Path repository() throws IOException {
    Path repository = Files.createDirectories(temporary.resolve("repo")).toRealPath();
    Files.writeString(repository.resolve("README.md"), "# shipped to the remote daemon\n");
    Files.createDirectories(repository.resolve("src"));
    Files.writeString(repository.resolve("src/Main.java"), "class Main {}\n");
    Files.createDirectories(repository.resolve("build"));
    Files.writeString(repository.resolve("build/old.txt"), "old\n");
    git(repository, "init", "-q");
    git(repository, "add", "-A");
    git(repository, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "init");
    return repository;
  }

  private Run exec(Map<String, String> docker, Path repository, String... argv) throws IOException, InterruptedException {
    return exec(docker, repository, busybox, List.of(argv));
  }

  private Run exec(Map<String, String> docker, Path repository, Path executable, List<String> argv)
      throws IOException, InterruptedException {
    List<String> args =
        new ArrayList<>(
            List.of("exec", "--backend", "docker", "--policy", policy.toString(), "--repo", repository.toString(), "--json", "--"));
    args.add(executable.toString());
    args.addAll(argv);
    return capability(docker, args.toArray(String[]::new));
  }

  /** The daemon's environment with {@code CAPABILITY_DOCKER_IMAGE} naming {@code image}. */
  private static Map<String, String> withImage(SecondDockerDaemon.Started daemon, String image) {
    Map<String, String> environment = new LinkedHashMap<>(daemon.environment());
    environment.put("CAPABILITY_DOCKER_IMAGE", image);
    return environment;
  }

  /** The derived test image with the host's programs and libraries, built on first use. */
  private static String testImage(SecondDockerDaemon.Started daemon) {
    return daemon.config().get("docker.image").orElseThrow();
  }

  @Test
  void aDynamicallyLinkedProgramRunsInTheImageTheOperatorNamesAndItsWriteComesBack() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    String image = testImage(daemon);
    Path repository = repository();

    Run run = exec(withImage(daemon, image), repository, sed, SED_EDIT);

    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode result = run.json();
    assertThat(result.get("stdout").asText()).isEqualTo("# edited to the remote daemon\n");
    assertThat(repository.resolve("build/edited.md")).hasContent("# edited to the remote daemon");
    assertThat(repository.resolve("README.md")).hasContent("# shipped to the remote daemon");
    assertThat(result.at("/attestation/backend/capabilities").toString()).contains("REMOTE_WORKSPACE");
    assertThat(result.at("/attestation/workspace/outcome").asText()).isEqualTo("APPLIED");

    Run doctor = capability(withImage(daemon, image), "doctor");
    assertThat(line(section(doctor.out(), "docker"), "  image: "))
        .as(doctor.toString())
        .startsWith("  image: " + image + " sha256:")
        .endsWith(" (named by CAPABILITY_DOCKER_IMAGE)");
  }

  @Test
  void withoutTheVariableTheSameProgramCannotStartInTheRuntimeImage() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    Path repository = repository();

    Run run = exec(daemon.environment(), repository, sed, SED_EDIT);

    // The runtime image has no dynamic loader: tini's execve of the shipped copy fails, as the
    // command's own failure (127, "not found"), after the policy allowed it.
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(127);
    JsonNode result = run.json();
    assertThat(result.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(result.get("stderr").asText()).contains("exec /opt/capability/run/sed failed: No such file or directory");
    assertThat(result.get("stdout").asText()).isEmpty();
    assertThat(repository.resolve("build/edited.md")).doesNotExist();
  }

  @Test
  void aMissingOrMalformedImageIsRefusedBeforeLaunchNamingTheImageAndTheVariable() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    Path repository = repository();
    String missing = "capability/no-such-image:" + ProcessHandle.current().pid();

    Run absent = exec(withImage(daemon, missing), repository, "cp", "README.md", "build/copy.md");
    Run malformed = exec(withImage(daemon, "Not An Image"), repository, "cp", "README.md", "build/copy.md");

    for (Run run : List.of(absent, malformed)) {
      assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CANNOT_EXECUTE);
      assertThat(run.json().at("/error/code").asText()).as(run.toString()).isEqualTo("BACKEND_UNAVAILABLE");
    }
    assertThat(absent.json().at("/error/message").asText())
        .contains("image " + missing + " (named by CAPABILITY_DOCKER_IMAGE) is not present on the docker daemon at " + daemon.host())
        .contains("build it there FROM the runtime image capability/runtime:" + Runtime.version().feature())
        .contains("'capability image'");
    assertThat(malformed.json().at("/error/message").asText())
        .contains("invalid CAPABILITY_DOCKER_IMAGE in the environment")
        .contains("'Not An Image' is not an image reference");
    assertThat(repository.resolve("build/copy.md")).doesNotExist();
  }

  @Test
  void imageBuildsTheRuntimeImageOnTheDaemonDockerHostNamesAndNotOnTheLocalOne() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    // A tag of its own: the daemon already holds the default one (the fixture built it as this
    // command does), and so may the local daemon.
    String tag = "capability/runtime-cli-remote:" + ProcessHandle.current().pid();
    try {
      Run build = capability(daemon.environment(), "image", "--tag", tag);

      assertThat(build.exitCode()).as(build.toString()).isZero();
      assertThat(build.err()).contains("capability: building the runtime image " + tag + " (not on the daemon yet)");
      assertThat(build.out()).startsWith(tag + " sha256:");
      String id = build.out().strip().substring(tag.length() + 1);
      try (DockerClient remote = daemon.client()) {
        assertThat(remote.inspectImageCmd(tag).exec().getId()).as("the remote daemon holds the tag").isEqualTo(id);
      }
      try (DockerClient local = DockerClients.forEndpoint(DockerEndpoint.from(BackendConfig.defaults(), Map.of()))) {
        if (reachable(local)) {
          assertThatThrownBy(() -> local.inspectImageCmd(tag).exec())
              .as("the local daemon never saw the build")
              .isInstanceOf(NotFoundException.class);
        }
      }

      Run again = capability(daemon.environment(), "image", "--tag", tag, "--json");
      assertThat(again.exitCode()).as(again.toString()).isZero();
      assertThat(again.json().get("id").asText()).as("up to date on the remote daemon").isEqualTo(id);
      assertThat(again.err()).isEmpty();
    } finally {
      try (DockerClient remote = daemon.client()) {
        remote.removeImageCmd(tag).withNoPrune(true).exec();
      } catch (NotFoundException e) {
        // Never built: the assertions above say why.
      }
    }
  }

  private static boolean reachable(DockerClient client) {
    try {
      client.pingCmd().exec();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Test
  void execShipsTheRepositoryAndBringsBackWhatTheCommandWroteInItsWriteScope() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    Path repository = repository();
    String tree = git(repository, "rev-parse", "HEAD^{tree}").strip();

    Run run = exec(daemon.environment(), repository, "cp", "README.md", "build/copy.md");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(repository.resolve("build/copy.md")).hasContent("# shipped to the remote daemon");
    assertThat(repository.resolve("build/old.txt")).hasContent("old");
    JsonNode attestation = run.json().get("attestation");
    assertThat(attestation.at("/backend/id").asText()).isEqualTo("docker");
    assertThat(attestation.at("/backend/capabilities").toString()).contains("REMOTE_WORKSPACE");
    assertThat(attestation.get("inputTreeHash").asText()).as("the tree the workspace was shipped from").isEqualTo(tree);
    JsonNode workspace = attestation.get("workspace");
    assertThat(workspace).as("a shipped workspace: %s", attestation).isNotNull();
    assertThat(workspace.get("outcome").asText()).isEqualTo("APPLIED");
    assertThat(workspace.get("inputSha256").asText()).matches("[0-9a-f]{64}");
    assertThat(workspace.get("inputEntries").asLong()).isPositive();
    assertThat(workspace.get("returnedBytes").asLong()).isPositive();
    assertThat(attestation.get("violations")).isEmpty();
  }

  @Test
  void execOnTheRemoteDaemonCannotWriteOutsideItsWriteScope() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    Path repository = repository();

    Run run = exec(daemon.environment(), repository, "cp", "README.md", "src/planted.md");

    assertThat(run.exitCode()).as(run.toString()).isNotZero();
    JsonNode result = run.json();
    assertThat(result.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(result.get("stderr").asText()).contains("src/planted.md");
    assertThat(result.at("/attestation/workspace/outcome").asText()).isEqualTo("APPLIED");
    assertThat(repository.resolve("src/planted.md")).doesNotExist();
  }

  @Test
  void doctorNamesTheRemoteDaemonItsEndpointAndItsTls() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    Path certificates = daemon.clientCertificates();

    Run doctor = capability(daemon.environment(), "doctor");

    assertThat(doctor.exitCode()).as(doctor.toString()).isZero();
    List<String> docker = section(doctor.out(), "docker");
    assertThat(docker).as(doctor.out()).first().isEqualTo("docker: available, a sandbox");
    assertThat(docker)
        .contains(
            "  daemon: "
                + daemon.host()
                + " (remote, TLS: daemon verified against "
                + certificates.resolve("ca.pem")
                + ", client certificate "
                + certificates.resolve("cert.pem")
                + ")");
    assertThat(line(docker, "  capabilities: ")).contains("REMOTE_WORKSPACE").doesNotContain("WRITE_BUDGET");
    assertThat(line(docker, "  bounds not enforced: ")).as("the roots are not on this host while it runs").contains("write budget");
    assertThat(line(docker, "  filtered egress: ")).startsWith("  filtered egress: unavailable");
    assertThat(line(docker, "  image: "))
        .startsWith("  image: capability/runtime:" + Runtime.version().feature() + " " + daemon.runtimeImage() + " ")
        .endsWith(" (the default)");
    assertThat(doctor.out()).doesNotContain("PRIVATE KEY");
  }

  /** The lines doctor printed for one backend: its own line and the indented ones below it. */
  private static List<String> section(String out, String id) {
    List<String> lines = new ArrayList<>();
    for (String line : out.lines().toList()) {
      if (lines.isEmpty() ? line.startsWith(id + ": ") : line.startsWith(" ")) {
        lines.add(line);
      } else if (!lines.isEmpty()) {
        break;
      }
    }
    return lines;
  }

  private static String line(List<String> lines, String prefix) {
    return lines.stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(() -> new AssertionError("no " + prefix + " in " + lines));
  }

  @Test
  void plainTcpWithoutTlsIsRefusedNamingTheOperatorSetting() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    Path repository = repository();
    Map<String, String> plain = Map.of("DOCKER_HOST", daemon.host().toString());

    Run exec = exec(plain, repository, "cp", "README.md", "build/copy.md");
    Run image = capability(plain, "image", "--json");
    Run doctor = capability(plain, "doctor");

    for (Run run : List.of(exec, image)) {
      assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CANNOT_EXECUTE);
      JsonNode error = run.json().get("error");
      assertThat(error).as(run.toString()).isNotNull();
      assertThat(error.get("code").asText()).isEqualTo("BACKEND_UNAVAILABLE");
      assertThat(error.get("message").asText())
          .contains("refusing plain TCP to the docker daemon at " + daemon.host())
          .contains("docker.insecure-plain-tcp-gives-the-network-root=true")
          .contains("CAPABILITY_DOCKER_INSECURE_PLAIN_TCP=1");
    }
    assertThat(repository.resolve("build/copy.md")).doesNotExist();
    assertThat(section(doctor.out(), "docker"))
        .as(doctor.toString())
        .first()
        .asString()
        .startsWith("docker: unavailable: ")
        .contains("refusing plain TCP to the docker daemon at " + daemon.host())
        .contains("CAPABILITY_DOCKER_INSECURE_PLAIN_TCP=1");
  }

  @Test
  void aClientCertificateOfAnotherCaIsRefusedWithAClearError() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    Path repository = repository();
    Map<String, String> stranger = new LinkedHashMap<>(daemon.environment());
    stranger.put("DOCKER_CERT_PATH", daemon.foreignClientCertificates().toString());

    Run exec = exec(stranger, repository, "cp", "README.md", "build/copy.md");
    Run image = capability(stranger, "image", "--json");

    for (Run run : List.of(exec, image)) {
      assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CANNOT_EXECUTE);
      JsonNode error = run.json().get("error");
      assertThat(error).as(run.toString()).isNotNull();
      assertThat(error.get("code").asText()).isEqualTo("BACKEND_UNAVAILABLE");
      assertThat(error.get("message").asText())
          .contains("the TLS connection failed with the docker daemon at " + daemon.host())
          .contains(daemon.foreignClientCertificates().resolve("cert.pem").toString())
          .doesNotContain("no docker daemon reachable");
    }
    assertThat(repository.resolve("build/copy.md")).doesNotExist();
  }

  @Test
  void aMissingCertificateDirectoryIsNamed() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    Path repository = repository();
    Path missing = temporary.resolve("no-such-certificates");
    Map<String, String> environment = new LinkedHashMap<>(daemon.environment());
    environment.put("DOCKER_CERT_PATH", missing.toString());

    Run run = exec(environment, repository, "cp", "README.md", "build/copy.md");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CANNOT_EXECUTE);
    JsonNode error = run.json().get("error");
    assertThat(error).as(run.toString()).isNotNull();
    assertThat(error.get("code").asText()).isEqualTo("BACKEND_UNAVAILABLE");
    assertThat(error.get("message").asText()).contains("DOCKER_CERT_PATH " + missing + " is not a directory");
  }
}
