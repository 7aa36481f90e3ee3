package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Run by {@link UnprivilegedJvmTest} in a child JVM as an unprivileged uid: creates the backend as
 * that user and attacks its sandboxes, printing one {@code key=value} line per finding. Takes the
 * directory to work in.
 */
public final class UnprivilegedLaunchMain {
  private UnprivilegedLaunchMain() {}

  public static void main(String[] args) throws IOException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Path work = Path.of(args[0]).toRealPath();
    Path repo = Files.createDirectories(work.resolve("repo"));
    Path writable = Files.createDirectories(repo.resolve("out"));
    Path bin = Files.createDirectories(work.resolve("bin"));
    Files.writeString(repo.resolve("tracked"), "original");
    Map<String, String> findings = new TreeMap<>();
    try (BwrapBackend backend = BwrapBackend.create(BackendConfig.defaults());
        ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      findings.put(
          "jvm.uid", Integer.toString(SandboxIdentity.JvmCredentials.current().effectiveUid()));
      findings.put("identity", backend.diagnostics().get("identity"));
      findings.put("termination.mechanism", backend.diagnostics().get("termination"));
      findings.put("capabilities", backend.capabilities().toString());
      String script =
          "id -u\n"
              + "echo changed > tracked 2>/dev/null && echo repo-written || echo repo-readonly\n"
              + "touch out/ok && echo root-writable\n"
              + "tr '\\0' '\\n' < /proc/$$/environ | sort | tr '\\n' ' '; wc -c < /proc/1/environ\n"
              + "ls /proc | grep -cE '^[0-9]+$'\n"
              + "unshare -U true 2>/dev/null && echo nested-userns || echo no-nested-userns\n"
              + "exec 3<>/dev/tcp/127.0.0.1/"
              + server.getLocalPort()
              + " 2>/dev/null"
              + " && echo loopback-reached || echo loopback-unreachable\n";
      LaunchResult result =
          backend.launch(
              spec(Sandboxes.script(bin, "/bin/bash", script), repo)
                  .writableRoots(List.of(writable))
                  .environment(Map.of("PATH", "/usr/bin:/bin", "ONLY", "this"))
                  .build());
      List<String> lines = result.stdout().text().lines().toList();
      findings.put("sandbox.uid", lines.get(0));
      findings.put("sandbox.repository", lines.get(1));
      findings.put("sandbox.writable-root", lines.get(2));
      findings.put("sandbox.environment", lines.get(3).replaceAll(" +[0-9]+$", "").strip());
      findings.put("sandbox.pid1-environment-bytes", lines.get(3).replaceAll(".* ", ""));
      findings.put("sandbox.process-count", lines.get(4));
      findings.put("sandbox.nested-userns", lines.get(5));
      findings.put("sandbox.loopback", lines.get(6));
      findings.put(
          "host.written-owner", Files.getAttribute(writable.resolve("ok"), "unix:uid").toString());
      findings.put("host.tracked", Files.readString(repo.resolve("tracked")));

      LaunchResult timedOut =
          backend.launch(
              spec(Sandboxes.script(bin, "trap '' TERM; sleep 1000 & sleep 1000"), repo)
                  .timeout(Duration.ofMillis(800))
                  .terminationGrace(Duration.ofMillis(100))
                  .build());
      findings.put("timeout.timed-out", Boolean.toString(timedOut.timedOut()));
      findings.put("timeout.termination", timedOut.termination());
      if (backend.capabilities().contains(IsolationCapability.FILTERED_EGRESS)) {
        findings.put("egress.reply", filteredEgress(backend, work, repo));
      }
    }
    findings.forEach((key, value) -> out.println(key + "=" + value));
  }

  /**
   * What a command with filtered network read back through 127.0.0.1:3128 from a Unix socket that
   * this JVM keeps in a directory only its uid may enter, as the egress proxy does.
   */
  private static String filteredEgress(BwrapBackend backend, Path work, Path repo)
      throws IOException {
    Path directory =
        Files.createDirectory(
            work.resolve("egress"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path socket = directory.resolve("proxy.sock");
    try (ServerSocketChannel proxy = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      proxy.bind(UnixDomainSocketAddress.of(socket));
      Thread answer =
          new Thread(
              () -> {
                try (SocketChannel connection = proxy.accept()) {
                  ByteBuffer request = ByteBuffer.allocate(64);
                  while (connection.read(request) >= 0) {
                    // Until the client's half-close.
                  }
                  connection.write(
                      ByteBuffer.wrap(
                          ("proxy-saw-" + request.position()).getBytes(StandardCharsets.UTF_8)));
                } catch (IOException e) {
                  // The launch's result shows what came through.
                }
              });
      answer.start();
      LaunchResult result =
          backend.launch(
              spec(Sandboxes.system("perl"), repo)
                  .arguments(
                      List.of(
                          "-e",
                          "use IO::Socket::INET; my $s = IO::Socket::INET->new(PeerAddr =>"
                              + " '127.0.0.1', PeerPort => 3128) or die \"no relay: $!\";"
                              + " print $s 'hello'; shutdown($s, 1); print <$s>;"))
                  .network(NetworkMode.FILTERED)
                  .egressSocket(socket)
                  .build());
      return result.stdout().text() + result.stderr().text().strip();
    }
  }

  private static LaunchSpec.Builder spec(
      dev.capability.kernel.api.backend.PinnedExecutable executable, Path repo) {
    return LaunchSpec.builder(executable)
        .repository(repo)
        .workingDirectory(repo)
        .environment(Map.of("PATH", "/usr/bin:/bin"))
        .network(NetworkMode.NONE)
        .timeout(Duration.ofSeconds(30))
        .terminationGrace(Duration.ofMillis(200));
  }
}
