package dev.capability.backend.docker.internal;

import com.github.dockerjava.core.LocalDirectorySSLConfig;
import com.github.dockerjava.transport.SSLConfig;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLException;
import org.jspecify.annotations.Nullable;

/**
 * Where the daemon is and how to reach it: {@code docker.host}, {@code docker.tls-verify} and
 * {@code docker.cert-path}, or else the CLI's {@code DOCKER_HOST}, {@code DOCKER_TLS_VERIFY} and
 * {@code DOCKER_CERT_PATH} ({@code ca.pem}, {@code cert.pem}, {@code key.pem}). A Unix socket is
 * local; a daemon reached over TCP is remote, even on 127.0.0.1, and must be reached over TLS with
 * the daemon's certificate verified and this client's certificate presented. Plain TCP is refused
 * unless {@value #INSECURE_PLAIN_TCP} is {@code true} (or {@value #INSECURE_PLAIN_TCP_VARIABLE} is
 * {@code 1}): whoever reaches a daemon's plain TCP port is root on its host.
 *
 * @param host the daemon's address, {@code unix://...} or {@code tcp://host:port}
 * @param certificates the directory of {@code ca.pem}, {@code cert.pem} and {@code key.pem}, when
 *     TLS is used
 */
public record DockerEndpoint(URI host, Optional<Path> certificates) {
  /** The setting that names the daemon; {@code DOCKER_HOST} when absent. */
  static final String HOST = "docker.host";
  /** The setting that asks for TLS with verification; {@code DOCKER_TLS_VERIFY} when absent. */
  static final String TLS_VERIFY = "docker.tls-verify";
  /** The directory of the TLS files; {@code DOCKER_CERT_PATH} when absent. */
  static final String CERT_PATH = "docker.cert-path";
  /** The operator's explicit consent to a plain, unauthenticated TCP connection. */
  static final String INSECURE_PLAIN_TCP = "docker.insecure-plain-tcp-gives-the-network-root";
  /** The same consent through the environment, for the CLI. */
  static final String INSECURE_PLAIN_TCP_VARIABLE = "CAPABILITY_DOCKER_INSECURE_PLAIN_TCP";

  static final List<String> KEYS = List.of(HOST, TLS_VERIFY, CERT_PATH, INSECURE_PLAIN_TCP);
  static final List<String> TLS_FILES = List.of("ca.pem", "cert.pem", "key.pem");
  private static final String DEFAULT_HOST = "unix:///var/run/docker.sock";

  public DockerEndpoint {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(certificates, "certificates");
  }

  /** The endpoint named by this process's environment alone. */
  public static DockerEndpoint fromEnvironment() {
    return from(BackendConfig.defaults(), System.getenv());
  }

  /**
   * Resolves and checks the endpoint: settings first, then the environment.
   *
   * @throws BackendUnavailableException {@code BACKEND_UNAVAILABLE} naming the setting, variable
   *     or file that is wrong
   */
  public static DockerEndpoint from(BackendConfig config, Map<String, String> environment) {
    String hostValue =
        config.get(HOST).map(String::strip).orElseGet(() -> nonBlank(environment.get("DOCKER_HOST")).orElse(DEFAULT_HOST));
    String hostSource = config.get(HOST).isPresent() ? HOST : "DOCKER_HOST";
    URI host;
    try {
      host = new URI(hostValue);
    } catch (URISyntaxException e) {
      throw invalid(hostSource + " '" + hostValue + "' is not an address: " + e.getMessage());
    }
    String scheme = host.getScheme() == null ? "" : host.getScheme();
    if (scheme.equals("unix")) {
      return new DockerEndpoint(host, Optional.empty());
    }
    if (!scheme.equals("tcp") || host.getHost() == null || host.getPort() <= 0) {
      throw invalid(
          hostSource + " '" + hostValue + "' is neither unix:///path nor tcp://host:port");
    }
    boolean tls =
        config.get(TLS_VERIFY).map(v -> bool(TLS_VERIFY, v))
            .orElseGet(() -> nonBlank(environment.get("DOCKER_TLS_VERIFY")).map(v -> !v.equals("0")).orElse(false));
    if (!tls) {
      boolean insecure =
          config.get(INSECURE_PLAIN_TCP).map(v -> bool(INSECURE_PLAIN_TCP, v)).orElse(false)
              || "1".equals(environment.get(INSECURE_PLAIN_TCP_VARIABLE));
      if (!insecure) {
        throw invalid(
            "refusing plain TCP to the docker daemon at "
                + hostValue
                + ": anyone who can reach that port is root on the daemon's host, and nothing"
                + " proves this is the daemon meant. Set "
                + TLS_VERIFY
                + "=true (or DOCKER_TLS_VERIFY=1) with "
                + CERT_PATH
                + " (or DOCKER_CERT_PATH) holding ca.pem, cert.pem and key.pem; or, accepting the"
                + " risk, "
                + INSECURE_PLAIN_TCP
                + "=true (or "
                + INSECURE_PLAIN_TCP_VARIABLE
                + "=1)");
      }
      return new DockerEndpoint(host, Optional.empty());
    }
    Path certificates =
        config.get(CERT_PATH).map(String::strip).map(Path::of)
            .or(() -> nonBlank(environment.get("DOCKER_CERT_PATH")).map(Path::of))
            .orElseGet(() -> Path.of(System.getProperty("user.home"), ".docker"));
    String certSource = config.get(CERT_PATH).isPresent() ? CERT_PATH : "DOCKER_CERT_PATH";
    requireTlsFiles(certificates, certSource);
    return new DockerEndpoint(host, Optional.of(certificates));
  }

  /** True when the daemon is reached over TCP: it is treated as remote, whatever its address. */
  public boolean remote() {
    return "tcp".equals(host.getScheme());
  }

  /** The TLS configuration, when TLS is used. */
  @Nullable SSLConfig sslConfig() {
    return certificates.map(dir -> (SSLConfig) new LocalDirectorySSLConfig(dir.toString())).orElse(null);
  }

  /** The endpoint for diagnostics: the address and whether TLS protects it; never key material. */
  public String describe() {
    if (!remote()) {
      return host + " (local socket)";
    }
    return host
        + (certificates.isPresent()
            ? " (remote, TLS: daemon verified against " + certificates.get().resolve("ca.pem") + ", client certificate " + certificates.get().resolve("cert.pem") + ")"
            : " (remote, PLAIN TCP WITHOUT TLS: " + INSECURE_PLAIN_TCP + " is set)");
  }

  /**
   * Why the daemon could not be reached, naming the endpoint: {@code BACKEND_UNAVAILABLE}. Over
   * TLS, a connection the daemon ended during or right after the handshake (an SSL error, a broken
   * connection: TLS 1.3 reports a refused client certificate only at the first read or write) is
   * said to be the TLS connection failing, with the certificates presented; the daemon was
   * reached, so the message does not send the user looking for it.
   */
  public BackendUnavailableException unreachable(RuntimeException e) {
    if (certificates.isPresent()) {
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof SSLException || (cause instanceof SocketException && !(cause instanceof ConnectException))) {
          return new BackendUnavailableException(
              BackendUnavailableException.UNAVAILABLE,
              "the TLS connection failed with the docker daemon at "
                  + describe()
                  + " ("
                  + cause
                  + "): the daemon refused this client's certificate or this client refused the"
                  + " daemon's; is ca.pem the CA of the daemon's certificate, and is cert.pem"
                  + " signed by a CA the daemon trusts (its --tlscacert)?",
              e);
        }
      }
    }
    return new BackendUnavailableException(
        BackendUnavailableException.UNAVAILABLE,
        "no docker daemon reachable at "
            + describe()
            + " (set DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH or docker.host,"
            + " docker.tls-verify, docker.cert-path for a remote one): "
            + e.getMessage(),
        e);
  }

  /**
   * Refuses a certificate directory whose files are missing or unreadable, or whose certificates
   * do not parse, naming the file; the key is checked when the first connection builds the TLS
   * context.
   */
  private static void requireTlsFiles(Path directory, String source) {
    if (!Files.isDirectory(directory)) {
      throw invalid(source + " " + directory + " is not a directory holding " + TLS_FILES);
    }
    for (String name : TLS_FILES) {
      Path file = directory.resolve(name);
      if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
        throw invalid("TLS file " + file + " (from " + source + ") is missing or unreadable");
      }
    }
    for (String name : List.of("ca.pem", "cert.pem")) {
      Path file = directory.resolve(name);
      try (InputStream in = Files.newInputStream(file)) {
        if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
          throw invalid("TLS file " + file + " holds no PEM certificate");
        }
      } catch (IOException | CertificateException e) {
        throw invalid("TLS file " + file + " is not a PEM certificate: " + e.getMessage());
      }
    }
    try {
      new LocalDirectorySSLConfig(directory.toString()).getSSLContext();
    } catch (Exception e) {
      throw invalid(
          "TLS file "
              + directory.resolve("key.pem")
              + " is not a private key for "
              + directory.resolve("cert.pem")
              + " (or the pair cannot be used): "
              + e);
    }
  }

  private static boolean bool(String key, String value) {
    return switch (value.strip()) {
      case "true" -> true;
      case "false" -> false;
      default -> throw invalid("invalid docker setting " + key + ": '" + value + "' is not true or false");
    };
  }

  private static Optional<String> nonBlank(@Nullable String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
  }

  private static BackendUnavailableException invalid(String why) {
    return new BackendUnavailableException(BackendUnavailableException.UNAVAILABLE, why);
  }
}
