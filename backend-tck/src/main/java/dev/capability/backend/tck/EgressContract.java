package dev.capability.backend.tck;

import static dev.capability.kernel.api.backend.IsolationCapability.FILTERED_EGRESS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.capability.backend.support.DirectoryTrees;
import dev.capability.backend.support.EgressRelay;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.network.EgressSandbox;
import dev.capability.kernel.api.network.NetworkFilterUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * Filtered network ({@code FILTERED_EGRESS}): the command's only way out is {@link
 * EgressSandbox#PROXY_HOST}:{@link EgressSandbox#PROXY_PORT}, relayed to the run's egress socket.
 * The suite stands in for the proxy with a Unix socket of its own ({@link EgressSocketServer}) and
 * listens on every address of this machine; it judges by what reached each listener. A backend
 * that does not claim the capability must refuse a filtered spec before anything runs.
 */
public interface EgressContract extends BackendUnderTest {

  /** An address of TEST-NET-1 (RFC 5737): routed nowhere, standing for any other destination. */
  String ELSEWHERE = "192.0.2.1";

  /** Exit status of the fixture when it ran to its end, so that its own status is seen to pass. */
  int FIXTURE_STATUS = 42;

  /** Exit status of the fixture when nothing listens on the relay's port. */
  int RELAY_UNREACHABLE = 11;

  /**
   * Connects to the relay, sends a line and half-closes, reads the answer to its end; then tries
   * the host's port $ARGV[1] on each further address. Reports {@code reply ...}, {@code eof 1},
   * {@code reached ADDRESS} for a connection that got through and {@code fd N TARGET} for each
   * descriptor it holds above stderr; writes a line to stderr; exits
   * {@link #FIXTURE_STATUS}, or {@link #RELAY_UNREACHABLE}.
   */
  String EGRESS_CLIENT =
      """
      use IO::Socket::INET;
      my ($relay_port, $port, @others) = @ARGV;
      my $s = IO::Socket::INET->new(
          PeerAddr => '127.0.0.1', PeerPort => $relay_port, Proto => 'tcp', Timeout => 5);
      if (!$s) { print "relay-unreachable $!\\n"; exit 11 }
      print $s "hello from the sandbox\\n";
      shutdown($s, 1);
      my $reply = <$s>;
      chomp $reply;
      print "reply $reply\\n";
      print 'eof ', (defined(<$s>) ? 0 : 1), "\\n";
      close $s;
      for my $h (@others) {
        my $c = IO::Socket::INET->new(PeerAddr => $h, PeerPort => $port, Proto => 'tcp', Timeout => 3);
        if ($c) { print "reached $h\\n"; close $c }
      }
      opendir(my $d, '/proc/self/fd') or die "no /proc/self/fd: $!";
      for (sort grep { /^\\d+$/ } readdir($d)) {
        print "fd $_ ", (readlink("/proc/self/fd/$_") // ''), "\\n" if $_ > 2;
      }
      print STDERR "the fixture's stderr\\n";
      exit 42;
      """;

  /**
   * Whether this backend is meant to offer {@code FILTERED_EGRESS} wherever the project's egress
   * relay can be built (a C compiler with the static C library): then {@link
   * #offersFilteredEgressWhereTheRelayCanBeBuilt} fails when it does not, so that a broken setup
   * cannot pass as an attack that was never run. False by default.
   */
  default boolean filteredEgressExpected() {
    return false;
  }

  @Test
  default void offersFilteredEgressWhereTheRelayCanBeBuilt() throws IOException {
    // First, so that a backend that cannot run here skips this test like every other.
    ExecutionBackend backend = backend();
    if (!filteredEgressExpected()) {
      return;
    }
    Path cache = Files.createTempDirectory("ck-tck-relay-");
    try {
      EgressRelay.onThisHost(cache);
    } catch (BackendUnavailableException e) {
      String reason = "the egress relay cannot be built here: " + e.getMessage();
      if ("1".equals(System.getenv(BackendGate.REQUIRE_VARIABLE))) {
        fail(reason + " (" + BackendGate.REQUIRE_VARIABLE + "=1 requires it)");
      }
      Assumptions.abort(reason + " (set " + BackendGate.REQUIRE_VARIABLE + "=1 to fail instead)");
    } finally {
      DirectoryTrees.delete(cache);
    }
    assertThat(backend.capabilities())
        .as(
            "backend %s where the relay builds; its FILTERED_EGRESS diagnostic: %s",
            backend.id(),
            backend.diagnostics().get(FILTERED_EGRESS.name()))
        .contains(FILTERED_EGRESS);
  }

  @Test
  default void filteredNetworkReachesOnlyTheEgressSocket(TestReporter reporter) throws IOException {
    if (!backend().capabilities().contains(FILTERED_EGRESS)) {
      reporter.publishEntry(
          "FILTERED_EGRESS",
          "backend " + backend().id() + " does not advertise FILTERED_EGRESS; not attacked");
      return;
    }
    String marker = "ck-tck-egress-" + UUID.randomUUID();
    try (Workspace workspace = Workspace.create();
        EgressSocketServer proxy = EgressSocketServer.start(marker);
        ServerSocketChannel host = ServerSocketChannel.open()) {
      // Every address of this machine: loopback, the container bridge's gateway, the LAN.
      host.bind(new InetSocketAddress(0));
      host.configureBlocking(false);
      int port = ((InetSocketAddress) host.getLocalAddress()).getPort();
      List<String> arguments = new ArrayList<>();
      arguments.addAll(
          List.of(
              "-e",
              EGRESS_CLIENT,
              "--",
              Integer.toString(EgressSandbox.PROXY_PORT),
              Integer.toString(port)));
      List<String> targets = hostAddresses();
      arguments.addAll(targets);
      Launches launches = new Launches(this, workspace);

      LaunchResult result =
          launches.run(
              launches
                  .spec(Tools.find("perl"), arguments.toArray(String[]::new))
                  .network(NetworkMode.FILTERED)
                  .egressSocket(proxy.socket())
                  .build());

      Claims.fixtureRan(result, FIXTURE_STATUS, RELAY_UNREACHABLE);
      if (result.exitCode().getAsInt() == RELAY_UNREACHABLE) {
        Claims.of(backend())
            .attack(
                true,
                "with filtered network nothing relayed 127.0.0.1:"
                    + EgressSandbox.PROXY_PORT
                    + " to the egress socket: "
                    + result.stdout().text().strip(),
                FILTERED_EGRESS)
            .verify();
      }
      String request = "hello from the sandbox\n";
      assertThat(proxy.received())
          .as("what reached the egress socket through 127.0.0.1:%d", EgressSandbox.PROXY_PORT)
          .containsExactly(request);
      assertThat(result.stdout().text().lines().toList())
          .as("the command's view: the reply, then the end of the connection")
          .containsSubsequence("reply " + marker + " " + request.length(), "eof 1");
      assertThat(result.stderr().text()).isEqualTo("the fixture's stderr\n");
      assertThat(result.stdout().text().lines().filter(line -> line.startsWith("fd ")))
          .as("descriptors the command holds above stderr: only its own listing of them")
          .singleElement()
          .satisfies(line -> assertThat(line).matches("fd \\d+ /proc/\\d+/fd"));
      Claims claims = Claims.of(backend());
      claims.attack(
          acceptedAny(host) || result.stdout().text().contains("reached "),
          "with filtered network the command connected to port "
              + port
              + " of one of "
              + targets
              + ": "
              + result.stdout().text().lines().filter(l -> l.startsWith("reached ")).toList(),
          FILTERED_EGRESS);
      claims.verify();
    }
  }

  @Test
  default void theRelayEndsWithTheRunWhileAConnectionIsStillOpen(TestReporter reporter)
      throws IOException {
    if (!backend().capabilities().contains(FILTERED_EGRESS)) {
      reporter.publishEntry(
          "FILTERED_EGRESS",
          "backend " + backend().id() + " does not advertise FILTERED_EGRESS; not attacked");
      return;
    }
    try (Workspace workspace = Workspace.create();
        EgressSocketServer proxy = EgressSocketServer.start("unused")) {
      Launches launches = new Launches(this, workspace);
      // A child connects through the relay and keeps the connection open; the command exits once
      // it has, leaving the child, the relay and the relay's connection process behind it.
      String leavesAConnectionOpen =
          "use IO::Socket::INET; pipe(my $r, my $w) or die;"
              + " my $pid = fork() // die; if ($pid == 0) { close $r;"
              + "   my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $ARGV[0]);"
              + "   syswrite($w, $s ? \"connected\\n\" : \"unreachable\\n\"); exit 11 unless $s;"
              + "   print $s 'held'; sleep 600; exit 0 }"
              + " close $w; my $line = <$r>; print $line; exit($line eq \"connected\\n\" ? 0 : 11);";

      Launches.Run run =
          launches.runCollectingSurvivors(
              launches
                  .spec(
                      Tools.find("perl"),
                      "-e",
                      leavesAConnectionOpen,
                      "--",
                      Integer.toString(EgressSandbox.PROXY_PORT))
                  .network(NetworkMode.FILTERED)
                  .egressSocket(proxy.socket())
                  .build());

      Claims.fixtureRan(run.result(), 0, RELAY_UNREACHABLE);
      Claims.of(backend())
          .attack(
              run.result().exitCode().getAsInt() == RELAY_UNREACHABLE,
              "with filtered network nothing relayed 127.0.0.1:" + EgressSandbox.PROXY_PORT,
              FILTERED_EGRESS)
          .verify();
      assertThat(run.survivors())
          .as("processes of the run (the relay and its connection's among them) after it ended")
          .isEmpty();
    }
  }

  @Test
  default void filteredNetworkIsRefusedBeforeLaunchWithoutTheCapability() throws IOException {
    if (backend().capabilities().contains(FILTERED_EGRESS)) {
      return;
    }
    try (Workspace workspace = Workspace.create();
        EgressSocketServer proxy = EgressSocketServer.start("unused")) {
      Path witness = workspace.writable().resolve("ran");
      Launches launches = new Launches(this, workspace);

      assertThatThrownBy(
              () ->
                  launches.run(
                      launches
                          .spec(Tools.find("touch"), witness.toString())
                          .writableRoots(List.of(workspace.writable()))
                          .network(NetworkMode.FILTERED)
                          .egressSocket(proxy.socket())
                          .build()))
          .as("backend %s without FILTERED_EGRESS launching a filtered spec", backend().id())
          .isInstanceOfSatisfying(
              CapabilityException.class,
              e -> assertThat(e.code()).isEqualTo(NetworkFilterUnavailableException.CODE));
      assertThat(witness).as("the command ran before the refusal").doesNotExist();
      assertThat(proxy.received()).isEmpty();
    }
  }

  /** Every IPv4 address of this machine's interfaces, and one that is routed nowhere. */
  private static List<String> hostAddresses() {
    Set<String> addresses = new LinkedHashSet<>(List.of("127.0.0.1"));
    try {
      for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        for (InetAddress address : Collections.list(network.getInetAddresses())) {
          if (address instanceof Inet4Address) {
            addresses.add(address.getHostAddress());
          }
        }
      }
    } catch (SocketException e) {
      throw new UncheckedIOException("cannot list this machine's addresses", e);
    }
    addresses.add(ELSEWHERE);
    return List.copyOf(addresses);
  }

  /** True when a connection is waiting to be accepted; the listener is non-blocking. */
  private static boolean acceptedAny(ServerSocketChannel server) {
    try (SocketChannel accepted = server.accept()) {
      return accepted != null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot accept on the test's own listener", e);
    }
  }
}
