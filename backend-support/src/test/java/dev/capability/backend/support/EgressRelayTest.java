package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.testing.RequiredBackends;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay program itself, run on this host with a free loopback port of its own instead of a
 * sandbox's 3128: bytes both ways with half-closes, the command's own status and signals, no
 * descriptor of the relay in the command, no wait on the relay, and no relay after the command.
 * The sandbox's side (an empty network namespace, the socket reached by descriptor) is attacked by
 * the contract suite's {@code EgressContract} under each backend.
 */
class EgressRelayTest {
  private static final Path PERL = Path.of("/usr/bin/perl");

  @TempDir Path temp;
  private EgressRelay relay;
  private ServerSocketChannel proxy;
  private Path socket;
  private Thread server;

  @BeforeEach
  void buildRelayAndProxy() throws IOException {
    StaticCompiler compiler =
        StaticCompiler.onThisHost()
            .orElseGet(() -> RequiredBackends.skipOrFail("no C compiler at " + StaticCompiler.CANDIDATES));
    try {
      relay = EgressRelay.build(compiler, temp);
    } catch (BackendUnavailableException e) {
      RequiredBackends.skipOrFail("the egress relay cannot be compiled here: " + e.getMessage());
    }
    socket = temp.resolve("proxy.sock");
    proxy = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    proxy.bind(UnixDomainSocketAddress.of(socket));
    server = new Thread(this::answerEachConnectionWithTheBytesItSent, "test-proxy");
    server.setDaemon(true);
    server.start();
  }

  @AfterEach
  void stopProxy() throws Exception {
    proxy.close();
    server.join(10_000);
  }

  /** Reads each connection to its end of input, then answers {@code got N} and closes. */
  private void answerEachConnectionWithTheBytesItSent() {
    while (proxy.isOpen()) {
      try (SocketChannel connection = proxy.accept()) {
        ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        long total = 0;
        int read;
        while ((read = connection.read(buffer)) >= 0) {
          total += read;
          buffer.clear();
        }
        connection.write(ByteBuffer.wrap(("got " + total + "\n").getBytes(StandardCharsets.UTF_8)));
      } catch (IOException e) {
        // Closed after the test.
      }
    }
  }

  @Test
  void relaysAMegabyteEachWayAndPassesOnTheHalfClose() throws Exception {
    int port = freePort();
    Run run =
        run(
            port,
            "use IO::Socket::INET;"
                + " for my $n (1000000, 0, 3) {"
                + "   my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $ARGV[0])"
                + "     or die \"no relay: $!\";"
                + "   print $s 'x' x $n; shutdown($s, 1); print scalar(<$s>);"
                + "   print 'eof ', (defined(<$s>) ? 0 : 1), \"\\n\"; }"
                + " exit 3",
            Integer.toString(port));

    assertThat(run.status()).isEqualTo(3);
    assertThat(run.stdout()).isEqualTo("got 1000000\neof 1\ngot 0\neof 1\ngot 3\neof 1\n");
  }

  @Test
  void theCommandKeepsItsExitStatusAndItsDeathBySignal() throws Exception {
    assertThat(run(freePort(), "exit 7").status()).isEqualTo(7);
    // The JDK reports a death by signal N as 128 + N.
    assertThat(run(freePort(), "kill 'TERM', $$; sleep 30").status()).isEqualTo(128 + 15);
  }

  @Test
  void theCommandHoldsNoDescriptorOfTheRelayAndGetsItsArgvAndEnvironment() throws Exception {
    Run run =
        run(
            freePort(),
            "opendir(my $d, '/proc/self/fd') or die;"
                + " for (sort grep { /^\\d+$/ } readdir($d)) {"
                + "   print \"fd $_ \", readlink(\"/proc/self/fd/$_\") // '', \"\\n\" if $_ > 2 }"
                + " print join('|', $0, @ARGV), \"\\n\"; print \"env $ENV{CK_RELAY_TEST}\\n\"",
            "one",
            "two words");

    List<String> lines = run.stdout().lines().toList();
    assertThat(lines.stream().filter(l -> l.startsWith("fd ")))
        .as("descriptors above stderr: only perl's own listing of /proc/self/fd")
        .singleElement()
        .satisfies(line -> assertThat(line).matches("fd \\d+ /proc/\\d+/fd"));
    assertThat(lines).contains("-e|one|two words", "env marked");
  }

  @Test
  void theCommandInheritsAnIgnoredSigchldAsItWas() throws Exception {
    List<String> grep = List.of("/usr/bin/grep", "^SigIgn:", "/proc/self/status");

    Run ignoring =
        runCommand(
            List.of(PERL.toString(), "-e", "$SIG{CHLD} = 'IGNORE'; exec @ARGV"), freePort(), grep);
    Run defaulting = runCommand(List.of(), freePort(), grep);

    assertThat(ignoring.status()).isZero();
    assertThat(ignoresSigchld(ignoring.stdout())).as(ignoring.stdout()).isTrue();
    assertThat(ignoresSigchld(defaulting.stdout())).as(defaulting.stdout()).isFalse();
  }

  /** Whether a {@code SigIgn:} line of {@code /proc/PID/status} has SIGCHLD (17, bit 16). */
  private static boolean ignoresSigchld(String sigIgnLine) {
    long mask = Long.parseUnsignedLong(sigIgnLine.replaceFirst("^SigIgn:\\s*", "").strip(), 16);
    return (mask & (1L << 16)) != 0;
  }

  @Test
  void aCommandThatWaitsForAllItsChildrenIsNotKeptWaitingByTheRelay() throws Exception {
    Run run =
        run(
            freePort(),
            "my $pid = fork(); exit 0 if $pid == 0; my $n = 0;"
                + " while ((my $w = wait()) != -1) { $n++ } print \"reaped $n\\n\"");

    assertThat(run.status()).isZero();
    assertThat(run.stdout()).isEqualTo("reaped 1\n");
  }

  @Test
  void theRelayEndsWithTheCommand() throws Exception {
    int port = freePort();
    Run run = run(port, "exit 0");

    assertThat(run.status()).isZero();
    // Bounded wait for the relay to notice: its pidfd is readable once the command has exited.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    List<Long> alive = relaysListeningOn(port);
    while (!alive.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
      alive = relaysListeningOn(port);
    }
    assertThat(alive).as("relay processes for port %d after the command ended", port).isEmpty();
  }

  @Test
  void refusesACacheDirectoryThatOthersCanWrite() throws IOException {
    Path parent = Files.createDirectory(temp.resolve("shared"));
    Path cache =
        parent.resolve(
            "capability-egress-relay-" + Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    Files.createDirectory(cache);
    Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThatThrownBy(() -> EgressRelay.build(StaticCompiler.onThisHost().orElseThrow(), parent))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining(cache.toString())
        .hasMessageContaining("not this user's own");
  }

  @Test
  void refusesACacheDirectoryThatIsASymlink() throws IOException {
    Path parent = Files.createDirectory(temp.resolve("linked"));
    Path elsewhere = Files.createDirectory(temp.resolve("elsewhere"));
    Files.createSymbolicLink(
        parent.resolve(
            "capability-egress-relay-" + Files.getAttribute(Path.of("/proc/self"), "unix:uid")),
        elsewhere);

    assertThatThrownBy(() -> EgressRelay.build(StaticCompiler.onThisHost().orElseThrow(), parent))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("not this user's own");
  }

  @Test
  void isBuiltOnceAndKeptReadOnly() throws IOException {
    EgressRelay again = EgressRelay.build(StaticCompiler.onThisHost().orElseThrow(), temp);

    assertThat(again.executable()).isEqualTo(relay.executable());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(relay.executable())))
        .isEqualTo("r-xr-xr-x");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(relay.executable().getParent())))
        .isEqualTo("rwx--x--x");
  }

  private record Run(int status, String stdout) {}

  /** Runs perl with {@code program} and {@code arguments} behind the relay on {@code port}. */
  private Run run(int port, String program, String... arguments) throws Exception {
    List<String> argv = new ArrayList<>(List.of(PERL.toString(), "-e", program, "--"));
    argv.addAll(List.of(arguments));
    return runCommand(List.of(), port, argv);
  }

  /**
   * Runs {@code argv} (its program's path first) behind the relay on {@code port}, the relay
   * executed by {@code wrapper} when it is not empty.
   */
  private Run runCommand(List<String> wrapper, int port, List<String> argv) throws Exception {
    List<String> withPort =
        new ArrayList<>(
            EgressRelay.command(relay.executable().toString(), socket.toString(), argv.get(0), argv));
    withPort.set(2, Integer.toString(port));
    withPort.addAll(0, wrapper);
    ProcessBuilder builder = new ProcessBuilder(withPort).redirectErrorStream(false);
    builder.environment().clear();
    builder.environment().put("CK_RELAY_TEST", "marked");
    Process process = builder.start();
    process.getOutputStream().close();
    String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the command ended").isTrue();
    return new Run(process.exitValue(), stdout);
  }

  private static int freePort() throws IOException {
    try (ServerSocket probe = new ServerSocket()) {
      probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      return probe.getLocalPort();
    }
  }

  /** Live (not zombie) processes named like the relay whose arguments name {@code port}. */
  private static List<Long> relaysListeningOn(int port) {
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      return processes
          .filter(p -> p.getFileName().toString().matches("\\d+"))
          .filter(p -> isLiveRelay(p, port))
          .map(p -> Long.parseLong(p.getFileName().toString()))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean isLiveRelay(Path process, int port) {
    try {
      String stat = Files.readString(process.resolve("stat"));
      String state = stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      List<String> cmdline =
          List.of(Files.readString(process.resolve("cmdline")).split("\0"));
      return !state.equals("Z")
          && stat.contains("(" + EgressRelay.PROGRAM_NAME)
          && cmdline.contains(Integer.toString(port));
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
