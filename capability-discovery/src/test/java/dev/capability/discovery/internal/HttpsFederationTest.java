package dev.capability.discovery.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.capability.discovery.DiscoveryCodes;
import dev.capability.discovery.DiscoveryLimits;
import dev.capability.discovery.DiscoveryResult;
import dev.capability.discovery.IndexProblem;
import dev.capability.discovery.NetworkAccess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS with a certificate made at test time by keytool, and the time budget against stalls. */
class HttpsFederationTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  private static final String INDEX = "{\"format\":\"capability-index/1\",\"entries\":[{\"coordinates\":\"org.example:notes:1.0.0\",\"name\":\"notes\"}]}";

  @TempDir static Path temp;
  private static HttpsServer server;
  private static SSLContext clientTrust;

  @BeforeAll
  static void start() throws Exception {
    Path store = temp.resolve("index.p12");
    Process keytool = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", "index", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=index.test",
            "-ext", "san=dns:index.test", "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12",
            "-storepass", "changeit", "-keypass", "changeit")
        .redirectErrorStream(true)
        .start();
    String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(keytool.waitFor()).as(output).isZero();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = java.nio.file.Files.newInputStream(store)) {
      keys.load(in, PASSWORD);
    }
    KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, PASSWORD);
    SSLContext serverTls = SSLContext.getInstance("TLS");
    serverTls.init(keyManagers.getKeyManagers(), null, null);

    Certificate certificate = keys.getCertificate("index");
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    trusted.setCertificateEntry("index", certificate);
    TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trusted);
    clientTrust = SSLContext.getInstance("TLS");
    clientTrust.init(null, trustManagers.getTrustManagers(), null);

    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
    server.createContext("/", exchange -> {
      try (exchange) {
        byte[] body = INDEX.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    });
    server.start();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  /** Every name resolves to loopback, as a hostile or test DNS might answer. */
  private static AddressGuard.HostResolver toLoopback() {
    return host -> new InetAddress[] {InetAddress.getLoopbackAddress()};
  }

  private static DiscoveryResult traverse(String url, AddressGuard.HostResolver resolver, SSLContext tls, Duration budget) {
    NetworkAccess httpsAndLoopback = new NetworkAccess(false, true, false);
    return new FederationTraversal(DiscoveryLimits.defaults().withTimeBudget(budget), new AddressGuard(httpsAndLoopback, resolver), tls)
        .run(List.of(URI.create(url)));
  }

  private static List<String> codes(DiscoveryResult result) {
    return result.problems().stream().map(IndexProblem::code).toList();
  }

  @Test
  void readsAnIndexOverHttpsFromTheCheckedAddress() {
    DiscoveryResult result = traverse("https://index.test:" + server.getAddress().getPort() + "/a", toLoopback(), clientTrust, Duration.ofSeconds(20));

    assertThat(result.problems()).isEmpty();
    assertThat(result.entries()).extracting(found -> found.entry().name()).containsExactly("notes");
  }

  @Test
  void aCertificateForAnotherNameIsRefused() {
    DiscoveryResult result = traverse("https://other.test:" + server.getAddress().getPort() + "/a", toLoopback(), clientTrust, Duration.ofSeconds(20));

    assertThat(codes(result)).containsExactly(DiscoveryCodes.INDEX_UNREACHABLE);
    assertThat(result.entries()).isEmpty();
  }

  @Test
  void aCertificateFromAnUntrustedIssuerIsRefused() throws Exception {
    DiscoveryResult result = traverse(
        "https://index.test:" + server.getAddress().getPort() + "/a", toLoopback(), SSLContext.getDefault(), Duration.ofSeconds(20));

    assertThat(codes(result)).containsExactly(DiscoveryCodes.INDEX_UNREACHABLE);
  }

  @Test
  void aServerThatNeverAnswersTheHandshakeRunsOutTheBudget() throws Exception {
    List<Socket> accepted = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            accepted.add(silent.accept());
          }
        } catch (IOException closed) {
          // the test is over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();

      DiscoveryResult result = traverse("https://index.test:" + silent.getLocalPort() + "/a", toLoopback(), clientTrust, Duration.ofSeconds(2));

      assertThat(result.stopReason()).isEqualTo(DiscoveryCodes.INDEX_TIME_EXCEEDED);
    }
    for (Socket socket : accepted) {
      socket.close();
    }
  }

  @Test
  void nameResolutionThatHangsRunsOutTheBudget() {
    CountDownLatch never = new CountDownLatch(1);
    AddressGuard.HostResolver hanging = host -> {
      try {
        never.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new UnknownHostException(host);
    };

    DiscoveryResult result = traverse("https://index.test/a", hanging, clientTrust, Duration.ofSeconds(1));

    assertThat(result.stopReason()).isEqualTo(DiscoveryCodes.INDEX_TIME_EXCEEDED);
  }
}
