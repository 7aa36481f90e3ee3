package dev.capability.backend.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import dev.capability.backend.docker.internal.DockerClients;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.testing.HostPrograms;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Container-specific attacks on the docker backend, each judged on the host where it can be: the
 * Docker socket, the bridge, read-only mounts, {@code /dev/shm}, the environment of PID 1,
 * capabilities and uid, and the labels and removal of every container.
 */
class DockerAttacksTest {
  private static final DockerClient CLIENT = DockerClients.fromEnvironment();

  @TempDir Path tmp;
  private Path repository;

  @BeforeEach
  void repository() throws IOException {
    backend();
    repository = tmp.resolve("repository");
    Files.createDirectory(repository);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(repository, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterAll
  static void closeClient() throws IOException {
    CLIENT.close();
  }

  private static ExecutionBackend backend() {
    return DockerGate.GATE.backend();
  }

  private static PinnedExecutable pin(String program) {
    try {
      Path real = HostPrograms.find(program).toRealPath();
      return new PinnedExecutable(
          real,
          Sha256.hex(Files.readAllBytes(real)),
          real.toString(),
          PinnedExecutable.Pinning.PROC_FD);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private LaunchSpec.Builder spec(String program, String... arguments) {
    return LaunchSpec.builder(pin(program))
        .arguments(List.of(arguments))
        .environment(Map.of("PATH", "/usr/bin:/bin"))
        .workingDirectory(repository)
        .repository(repository)
        .timeout(Duration.ofSeconds(60))
        .terminationGrace(Duration.ofMillis(300));
  }

  /** Runs a perl program that exits 0 when the attack got in and 10 when it was blocked. */
  private LaunchResult attack(NetworkMode network, String perl, String... arguments) {
    String[] argv = new String[arguments.length + 2];
    argv[0] = "-e";
    argv[1] = perl;
    System.arraycopy(arguments, 0, argv, 2, arguments.length);
    LaunchResult result = backend().launch(spec("perl", argv).network(network).build());
    assertThat(result.exitCode().orElse(-1))
        .as("attack fixture status; stderr: %s", result.stderr().text())
        .isIn(0, 10);
    return result;
  }

  @Test
  void holdsNoCapabilitiesAndRunsAsNobodyWithoutNewPrivileges() {
    LaunchResult result = backend().launch(spec("cat", "/proc/self/status").build());

    String status = result.stdout().text();
    assertThat(status)
        .contains("CapEff:\t0000000000000000")
        .contains("CapPrm:\t0000000000000000")
        .contains("CapBnd:\t0000000000000000")
        .contains("Uid:\t65534\t65534\t65534\t65534")
        .contains("Gid:\t65534\t65534\t65534\t65534")
        .contains("NoNewPrivs:\t1");
  }

  @Test
  void pidOneAndTheCommandSeeExactlyTheSpecEnvironment() {
    assertThat(System.getenv()).isNotEmpty();
    LaunchResult result =
        backend()
            .launch(
                spec("cat", "/proc/1/environ", "/proc/self/environ")
                    .environment(Map.of("ONLY", "this"))
                    .build());

    assertThat(result.stdout().text()).isEqualTo("ONLY=this\0ONLY=this\0");
  }

  @Test
  void theDockerSocketIsNeitherMountedNorReachable() {
    String perl =
        "use IO::Socket::UNIX; for my $p (@ARGV) { exit 0 if -e $p;"
            + " exit 0 if IO::Socket::UNIX->new(Peer => $p) } exit 10";

    LaunchResult result =
        attack(NetworkMode.NONE, perl, "/var/run/docker.sock", "/run/docker.sock");
    LaunchResult mounts = backend().launch(spec("cat", "/proc/self/mountinfo").build());

    assertThat(result.exitCode()).as("reached the docker socket").hasValue(10);
    assertThat(mounts.stdout().text()).doesNotContain("docker.sock").doesNotContain(" /run ");
  }

  @Test
  void withoutNetworkNeitherHostLoopbackNorTheBridgeGatewayIsReachable() throws IOException {
    try (ServerSocketChannel listener = ServerSocketChannel.open()) {
      listener.bind(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 0));
      listener.configureBlocking(false);
      int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
      String perl = connectsToAny(port);

      LaunchResult result = attack(NetworkMode.NONE, perl, hostAddresses());

      assertThat(listener.accept()).as("a connection reached the host listener").isNull();
      assertThat(result.exitCode()).hasValue(10);
    }
  }

  @Test
  void withTheNetworkAllowedHostLoopbackStaysUnreachable() throws IOException {
    try (ServerSocketChannel listener = ServerSocketChannel.open()) {
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      listener.configureBlocking(false);
      int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
      String perl = connectsToAny(port);

      LaunchResult result = attack(NetworkMode.HOST, perl, hostAddresses());

      assertThat(listener.accept()).as("a connection reached the host's loopback").isNull();
      assertThat(result.exitCode()).hasValue(10);
    }
  }

  /** A perl program that exits 0 when it connects to {@code port} on any host given as an argument, 10 otherwise. */
  private static String connectsToAny(int port) {
    return "use IO::Socket::INET; for my $h (@ARGV) { exit 0 if IO::Socket::INET->new("
        + "PeerAddr => $h, PeerPort => " + port + ", Timeout => 3) } exit 10";
  }

  @Test
  void cannotWriteThroughReadOnlyMounts() throws IOException {
    Path target = repository.resolve("target.txt");
    Files.writeString(target, "original");
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-rw-rw-"));
    String perl =
        "for my $p (@ARGV) { if (open(my $f, '>>', $p)) { print $f 'x'; close($f) and exit 0 } }"
            + " exit 10";

    LaunchResult result =
        attack(
            NetworkMode.NONE,
            perl,
            target.toString(),
            "/usr/ck-docker-" + UUID.randomUUID(),
            "/etc/hosts",
            "/ck-docker-" + UUID.randomUUID());

    assertThat(result.exitCode()).as("wrote through a read-only mount").hasValue(10);
    assertThat(Files.readString(target)).isEqualTo("original");
  }

  @Test
  void aCommandWritingTheRepositoryCannotWriteANestedRepositorysGitDirectory() throws IOException {
    String open = "rwxrwxrwx";
    Path hooks = repository.resolve("sub/.git/hooks");
    Files.createDirectories(hooks);
    for (Path directory : List.of(repository, repository.resolve("sub"), hooks.getParent(), hooks)) {
      Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString(open));
    }
    Path hook = hooks.resolve("post-checkout");
    Path config = hooks.getParent().resolve("config");
    for (Path file : List.of(hook, config)) {
      Files.writeString(file, "original\n");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
    }
    Path planted = hooks.resolve("pre-commit");
    Path beside = repository.resolve("sub/written");
    // Exits 0 when any write into the nested .git got through, 10 when all were refused and the
    // write beside it (the control) worked.
    String perl =
        "my ($beside, $planted, @targets) = @ARGV;"
            + " open(my $b, '>', $beside) or exit 3; close($b);"
            + " for my $p (@targets) { if (open(my $f, '>>', $p)) { print $f \"touch /tmp/pwned\\n\";"
            + " close($f) and exit 0 } }"
            + " if (open(my $n, '>', $planted)) { close($n); exit 0 }"
            + " exit 10";

    LaunchResult result =
        backend()
            .launch(
                spec(
                        "perl",
                        "-e",
                        perl,
                        beside.toString(),
                        planted.toString(),
                        hook.toString(),
                        config.toString())
                    .writableRoots(List.of(repository))
                    .network(NetworkMode.NONE)
                    .build());

    assertThat(result.exitCode())
        .as("the attack's status (stderr %s)", result.stderr().text())
        .hasValue(10);
    assertThat(beside).as("the control write beside the nested .git").exists();
    assertThat(hook).hasContent("original");
    assertThat(config).hasContent("original");
    assertThat(planted).doesNotExist();
  }

  @Test
  void fillingDevShmStopsAtItsLimit() {
    LaunchResult result =
        backend()
            .launch(spec("dd", "if=/dev/zero", "of=/dev/shm/fill", "bs=1M", "count=64").build());

    assertThat(result.exitCode().orElse(0)).isNotZero();
    assertThat(result.stderr().text()).contains("No space left on device");
  }

  @Test
  void tmpIsPrivateSizeLimitedAndNotExecutable() {
    LaunchResult fill =
        backend().launch(spec("dd", "if=/dev/zero", "of=/tmp/fill", "bs=1M", "count=128").build());
    LaunchResult mounts = backend().launch(spec("cat", "/proc/self/mountinfo").build());

    assertThat(fill.stderr().text()).contains("No space left on device");
    assertThat(mounts.stdout().text().lines().filter(l -> l.contains(" /tmp ")).findFirst())
        .hasValueSatisfying(line -> assertThat(line).contains("noexec").contains("tmpfs"));
  }

  @Test
  void everyContainerCarriesTheSdkLabelsAndIsRemovedAfterTheRun() throws Exception {
    ExecutionBackend backend = backend();
    CompletableFuture<LaunchResult> run =
        CompletableFuture.supplyAsync(
            () -> backend.launch(spec("sleep", "600").timeout(Duration.ofSeconds(600)).build()));
    String jvm = ProcessHandle.current().pid() + ":";
    Optional<Container> container = Optional.empty();
    for (int i = 0; i < 600 && container.isEmpty(); i++) {
      container =
          CLIENT.listContainersCmd().withLabelFilter(Map.of("dev.capability.sdk", "1")).exec()
              .stream()
              .filter(c -> c.getLabels().getOrDefault("dev.capability.jvm", "").startsWith(jvm))
              .filter(c -> "running".equals(c.getState()))
              .findFirst();
      if (container.isEmpty()) {
        Thread.sleep(100);
      }
    }
    assertThat(container).as("the running container of this JVM").isPresent();
    Map<String, String> labels = container.get().getLabels();
    assertThat(labels)
        .containsKeys("dev.capability.run", "dev.capability.host")
        .containsEntry("dev.capability.sdk", "1");
    assertThat(labels.get("dev.capability.jvm"))
        .isEqualTo(
            jvm + dev.capability.backend.support.ProcTable.read(ProcessHandle.current().pid()).orElseThrow().startTicks());

    CLIENT.killContainerCmd(container.get().getId()).withSignal("KILL").exec();
    LaunchResult result = run.get(120, TimeUnit.SECONDS);

    assertThat(result.exitCode()).hasValue(137);
    assertThat(
            CLIENT.listContainersCmd().withShowAll(true).exec().stream()
                .map(Container::getId)
                .toList())
        .doesNotContain(container.get().getId());
  }

  @Test
  void refusesASymlinkedRepositoryBeforeCreatingAnything() throws IOException {
    Path link = tmp.resolve("link");
    Files.createSymbolicLink(link, repository);
    long before = sdkContainers();

    assertThatThrownBy(
            () -> backend().launch(spec("true").repository(link).workingDirectory(link).build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("symlink");
    assertThat(sdkContainers()).isEqualTo(before);
  }

  @Test
  void refusesAnExecutableWhoseBytesChangedAfterHashing() {
    PinnedExecutable cat = pin("cat");
    PinnedExecutable forged =
        new PinnedExecutable(cat.path(), "0".repeat(64), cat.execPath(), cat.pinning());

    assertThatThrownBy(
            () ->
                backend()
                    .launch(
                        LaunchSpec.builder(forged)
                            .workingDirectory(repository)
                            .repository(repository)
                            .build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("refusing to run it");
  }

  @Test
  void theHostJdkRunsInTheContainerForCapabilityCode() throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java").toRealPath();
    PinnedExecutable pinned =
        new PinnedExecutable(
            java,
            Sha256.hex(Files.readAllBytes(java)),
            java.toString(),
            PinnedExecutable.Pinning.PROC_FD);

    LaunchResult result =
        backend()
            .launch(
                LaunchSpec.builder(pinned)
                    .arguments(List.of("-XshowSettings:properties", "-version"))
                    .workingDirectory(repository)
                    .repository(repository)
                    .timeout(Duration.ofSeconds(120))
                    .build());

    assertThat(result.exitCode()).as("stderr: %s", result.stderr().text()).hasValue(0);
    assertThat(result.stderr().text())
        .contains("java.version = " + System.getProperty("java.version"))
        .contains("user.name = nobody");
  }

  @Test
  void stdinReachesTheCommandAndIsClosed() {
    byte[] input = "through the attach stream\n".getBytes(StandardCharsets.UTF_8);

    LaunchResult result = backend().launch(spec("cat").stdin(input).build());

    assertThat(result.exitCode()).hasValue(0);
    assertThat(result.stdout().bytes()).isEqualTo(input);
  }

  @Test
  void theEndOfInputReachesTheCommandOnEveryRun() {
    // Closing the stdin attach before the container ran once lost the end of input: the command
    // then waited for it until its deadline. Small inputs on many runs are what exposed it.
    for (int run = 0; run < 25; run++) {
      byte[] input = ("run " + run + "\n").getBytes(StandardCharsets.UTF_8);

      LaunchResult result = backend().launch(spec("cat").stdin(input).timeout(java.time.Duration.ofSeconds(20)).build());

      assertThat(result.timedOut()).as("run %d waited for the end of its input", run).isFalse();
      assertThat(result.stdout().bytes()).as("run %d", run).isEqualTo(input);
    }
  }

  private static long sdkContainers() {
    return CLIENT
        .listContainersCmd()
        .withShowAll(true)
        .withLabelFilter(Map.of("dev.capability.sdk", "1"))
        .exec()
        .size();
  }

  /** Host loopback and the host's addresses on the docker bridge. */
  private static String[] hostAddresses() {
    List<String> addresses = new ArrayList<>(List.of("127.0.0.1"));
    addresses.addAll(BridgeAddresses.of(CLIENT));
    return addresses.toArray(String[]::new);
  }
}
