package dev.capability.backend.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import dev.capability.backend.docker.internal.DockerClients;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's fixed environment value (a token) reaches the command, but neither the container's
 * configuration, which {@code docker inspect} shows to anyone who can talk to the daemon, nor the
 * command line of any process on the host, the container's included.
 */
class DockerSecretsTest {
  private static final DockerClient CLIENT = DockerClients.fromEnvironment();

  @TempDir Path tmp;

  @AfterAll
  static void close() throws IOException {
    CLIENT.close();
  }

  private static PinnedExecutable perl() throws IOException {
    Path perl = Path.of("/usr/bin/perl").toRealPath();
    return new PinnedExecutable(
        perl, Sha256.hex(Files.readAllBytes(perl)), perl.toString(), PinnedExecutable.Pinning.PROC_FD);
  }

  @Test
  void aFixedEnvironmentValueIsInNeitherDockerInspectNorAnyCommandLine() throws Exception {
    ExecutionBackend backend = DockerGate.GATE.backend();
    String token = "s3cr3t-" + UUID.randomUUID();
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path scope = Files.createDirectory(tmp.resolve("scope"));
    Files.setPosixFilePermissions(scope, PosixFilePermissions.fromString("rwxrwxrwx"));
    // Writes what it sees of TOKEN, then waits until the test, done looking, creates "go".
    String program =
        "open(my $f, '>', \"$ARGV[0]/seen.tmp\") or die; print $f $ENV{TOKEN}; close $f;"
            + " rename(\"$ARGV[0]/seen.tmp\", \"$ARGV[0]/seen\") or die;"
            + " select(undef, undef, undef, 0.05) until -e \"$ARGV[0]/go\"; exit 0";
    LaunchSpec spec =
        LaunchSpec.builder(perl())
            .arguments(List.of("-e", program, scope.toString()))
            .environment(Map.of("TOKEN", token, "PATH", "/usr/bin:/bin"))
            .workingDirectory(scope)
            .writableRoots(List.of(scope))
            .timeout(Duration.ofSeconds(300))
            .build();

    CompletableFuture<LaunchResult> run = CompletableFuture.supplyAsync(() -> backend.launch(spec));
    Path seen = scope.resolve("seen");
    while (!Files.exists(seen) && !run.isDone()) {
      Thread.sleep(20);
    }
    assertThat(run.isDone()).as("the command ended before it reported: %s", run.getNow(null)).isFalse();
    Container container = runningContainerOfThisJvm().orElseThrow();

    String inspected = inspectRaw(container.getId());
    assertThat(inspected).as("docker inspect of the running container").contains("\"Running\":true");
    assertThat(inspected).doesNotContain(token);
    List<String> commandLines = hostCommandLines();
    assertThat(commandLines)
        .as("the container's processes are visible from the host")
        .anyMatch(line -> line.contains(scope.toString()));
    assertThat(commandLines).noneMatch(line -> line.contains(token));

    Files.createFile(scope.resolve("go"));
    LaunchResult result = run.get(300, TimeUnit.SECONDS);
    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(seen).hasContent(token);
  }

  private static Optional<Container> runningContainerOfThisJvm() {
    String jvm = ProcessHandle.current().pid() + ":";
    return CLIENT.listContainersCmd().withLabelFilter(Map.of("dev.capability.sdk", "1")).exec().stream()
        .filter(c -> c.getLabels().getOrDefault("dev.capability.jvm", "").startsWith(jvm))
        .filter(c -> "running".equals(c.getState()))
        .findFirst();
  }

  /**
   * The daemon's own JSON for the container, every field of it, as {@code docker inspect} gets it,
   * over the daemon's Unix socket; for a daemon reached otherwise, docker-java's reading of it.
   */
  private static String inspectRaw(String id) throws IOException {
    URI host = DefaultDockerClientConfig.createDefaultConfigBuilder().build().getDockerHost();
    if (!"unix".equals(host.getScheme())) {
      return new ObjectMapper().writeValueAsString(CLIENT.inspectContainerCmd(id).exec());
    }
    try (SocketChannel socket = SocketChannel.open(UnixDomainSocketAddress.of(host.getPath()))) {
      socket.write(
          ByteBuffer.wrap(
              ("GET /containers/" + id + "/json HTTP/1.0\r\nHost: docker\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII)));
      ByteArrayOutputStream response = new ByteArrayOutputStream();
      ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
      while (socket.read(buffer) >= 0) {
        response.write(buffer.array(), 0, buffer.position());
        buffer.clear();
      }
      String text = response.toString(StandardCharsets.UTF_8);
      assertThat(text).startsWith("HTTP/1.0 200");
      return text;
    }
  }

  /** Every process's command line on the host, its arguments joined by spaces. */
  private static List<String> hostCommandLines() throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      for (Path process : (Iterable<Path>) processes::iterator) {
        if (!process.getFileName().toString().chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          byte[] cmdline = Files.readAllBytes(process.resolve("cmdline"));
          byte[] spaced = Arrays.copyOf(cmdline, cmdline.length);
          for (int i = 0; i < spaced.length; i++) {
            spaced[i] = spaced[i] == 0 ? (byte) ' ' : spaced[i];
          }
          lines.add(new String(spaced, StandardCharsets.UTF_8));
        } catch (IOException e) {
          // The process ended while the list was read.
        }
      }
    }
    return lines;
  }
}
