package dev.capability.backend.docker.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the daemon's address and TLS files are read, and what is refused before any connection. */
class DockerEndpointTest {

  @Test
  void aUnixSocketIsLocalAndNeedsNoCertificates() {
    DockerEndpoint endpoint = DockerEndpoint.from(BackendConfig.defaults(), Map.of());

    assertThat(endpoint.remote()).isFalse();
    assertThat(endpoint.host().toString()).isEqualTo("unix:///var/run/docker.sock");
    assertThat(endpoint.describe()).contains("local socket");
  }

  @Test
  void plainTcpIsRefusedNamingTheRiskAndTheSettingThatAcceptsIt() {
    assertThatThrownBy(() -> DockerEndpoint.from(BackendConfig.defaults(), Map.of("DOCKER_HOST", "tcp://127.0.0.1:2375")))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("refusing plain TCP")
        .hasMessageContaining("root on the daemon's host")
        .hasMessageContaining(DockerEndpoint.INSECURE_PLAIN_TCP);
    assertThatThrownBy(
            () -> DockerEndpoint.from(
                new BackendConfig(Map.of("docker.host", "tcp://127.0.0.1:2375", "docker.tls-verify", "false")),
                Map.of("DOCKER_TLS_VERIFY", "1")))
        .hasMessageContaining("refusing plain TCP");
  }

  @Test
  void plainTcpIsUsedOnlyWithTheLoudSettingAndSaysSo() {
    DockerEndpoint endpoint =
        DockerEndpoint.from(
            new BackendConfig(
                Map.of("docker.host", "tcp://127.0.0.1:2375", DockerEndpoint.INSECURE_PLAIN_TCP, "true")),
            Map.of());

    assertThat(endpoint.remote()).isTrue();
    assertThat(endpoint.certificates()).isEmpty();
    assertThat(endpoint.describe()).contains("PLAIN TCP WITHOUT TLS");
    assertThat(
            DockerEndpoint.from(
                    BackendConfig.defaults(),
                    Map.of("DOCKER_HOST", "tcp://10.0.0.1:2375", DockerEndpoint.INSECURE_PLAIN_TCP_VARIABLE, "1"))
                .remote())
        .isTrue();
  }

  @Test
  void aMissingTlsFileIsNamed(@TempDir Path certificates) throws Exception {
    Files.writeString(certificates.resolve("ca.pem"), "x");
    Files.writeString(certificates.resolve("cert.pem"), "x");

    assertThatThrownBy(
            () -> DockerEndpoint.from(
                BackendConfig.defaults(),
                Map.of("DOCKER_HOST", "tcp://127.0.0.1:2376", "DOCKER_TLS_VERIFY", "1", "DOCKER_CERT_PATH", certificates.toString())))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining(certificates.resolve("key.pem").toString())
        .hasMessageContaining("missing");
  }

  @Test
  void aTlsFileThatIsNoCertificateIsNamed(@TempDir Path certificates) throws Exception {
    for (String name : DockerEndpoint.TLS_FILES) {
      Files.writeString(certificates.resolve(name), "not a certificate\n");
    }

    assertThatThrownBy(
            () -> DockerEndpoint.from(
                new BackendConfig(
                    Map.of(
                        "docker.host", "tcp://127.0.0.1:2376",
                        "docker.tls-verify", "true",
                        "docker.cert-path", certificates.toString())),
                Map.of()))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining(certificates.resolve("ca.pem").toString())
        .hasMessageContaining("not a PEM certificate");
  }

  @Test
  void anAddressThatIsNeitherASocketNorTcpIsRefused() {
    assertThatThrownBy(() -> DockerEndpoint.from(new BackendConfig(Map.of("docker.host", "http://example:80")), Map.of()))
        .hasMessageContaining("docker.host")
        .hasMessageContaining("neither unix:///path nor tcp://host:port");
  }

  @Test
  void aConnectionEndedInTheTlsHandshakeIsNamedAsSuchAndARefusedConnectionAsNoDaemon() {
    DockerEndpoint tls = new DockerEndpoint(java.net.URI.create("tcp://127.0.0.1:2376"), java.util.Optional.of(Path.of("/certs")));
    RuntimeException handshake =
        new RuntimeException("wrapped", new javax.net.ssl.SSLHandshakeException("Received fatal alert: bad_certificate"));
    RuntimeException refused = new RuntimeException("wrapped", new java.net.ConnectException("Connection refused"));

    assertThat(tls.unreachable(handshake))
        .hasMessageStartingWith("the TLS connection failed with the docker daemon at tcp://127.0.0.1:2376")
        .hasMessageContaining("/certs/cert.pem")
        .hasMessageContaining("bad_certificate")
        .hasMessageNotContaining("no docker daemon reachable")
        .extracting(e -> e.code())
        .isEqualTo(BackendUnavailableException.UNAVAILABLE);
    assertThat(tls.unreachable(refused))
        .hasMessageStartingWith("no docker daemon reachable at tcp://127.0.0.1:2376")
        .hasMessageNotContaining("TLS connection failed");
  }
}
