package dev.capability.backend.docker;

import com.github.dockerjava.api.DockerClient;
import dev.capability.backend.docker.internal.DockerClients;
import dev.capability.backend.docker.internal.DockerEndpoint;
import dev.capability.backend.docker.internal.DockerSettings;
import dev.capability.backend.docker.internal.RuntimeImageBuilder;
import dev.capability.backend.support.StaticCompiler;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Builds the docker backend's minimal runtime image on the daemon, without any registry: the
 * entrypoint launcher {@code ck-launch} (compiled statically with this host's gcc), a statically
 * linked busybox and tini (PID 1), a {@code jlink} runtime of this
 * JDK for capability code, and {@code /etc/passwd} naming {@code nobody}, loaded as a local image.
 * Building again with the same inputs leaves the existing image alone.
 *
 * <pre>{@code
 * String id = LocalRuntimeImage.ensure(LocalRuntimeImage.defaultTag());
 * }</pre>
 */
public final class LocalRuntimeImage {
  private static final List<Path> BUSYBOX =
      List.of(Path.of("/bin/busybox"), Path.of("/usr/bin/busybox"));
  private static final List<Path> TINI =
      List.of(
          Path.of("/usr/bin/tini-static"),
          Path.of("/usr/bin/docker-init"),
          Path.of("/usr/libexec/docker/docker-init"),
          Path.of("/usr/sbin/docker-init"));

  private LocalRuntimeImage() {}

  /** The tag the backend uses by default, {@code capability/runtime:<Java feature release>}. */
  public static String defaultTag() {
    return DockerSettings.defaultImage();
  }

  /**
   * Makes sure {@code tag} names the runtime image built from this host's gcc, busybox, tini and JDK,
   * on the daemon named by {@code DOCKER_HOST}; builds it when it is missing or its inputs changed.
   *
   * @return the image id
   * @throws BackendUnavailableException when the daemon, gcc with a static C library,
   *     busybox-static, tini or jlink is missing
   */
  public static String ensure(String tag) {
    return ensure(tag, step -> {});
  }

  /**
   * As {@link #ensure(String)}, telling {@code progress} each step of a build (jlink, writing the
   * layer, loading it) as a short sentence before it starts; a build takes tens of seconds, and
   * nothing is told when the image is already up to date. This library prints nothing itself.
   */
  public static String ensure(String tag, Consumer<String> progress) {
    return ensure(tag, BackendConfig.defaults(), progress);
  }

  /**
   * As {@link #ensure(String, Consumer)}, on the daemon that {@code connection}'s {@code
   * docker.host}, {@code docker.tls-verify} and {@code docker.cert-path} name (the environment's
   * {@code DOCKER_HOST}, {@code DOCKER_TLS_VERIFY} and {@code DOCKER_CERT_PATH} where they are
   * absent); its other settings are not read.
   *
   * @throws BackendUnavailableException also when the connection settings are refused (plain TCP
   *     without consent, missing or broken TLS files)
   */
  public static String ensure(String tag, BackendConfig connection, Consumer<String> progress) {
    Objects.requireNonNull(tag, "tag");
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(progress, "progress");
    Path compiler = hostBinary(StaticCompiler.CANDIDATES, "C compiler (install gcc and libc6-dev)");
    Path busybox = hostBinary(BUSYBOX, "busybox (install busybox-static)");
    Path tini = hostBinary(TINI, "tini (install tini or docker.io)");
    DockerEndpoint endpoint = DockerEndpoint.from(connection, System.getenv());
    try (DockerClient client = DockerClients.forEndpoint(endpoint)) {
      try {
        client.pingCmd().exec();
      } catch (RuntimeException e) {
        // Named as the backend names it: a refused certificate is not an absent daemon.
        throw endpoint.unreachable(e);
      }
      return new RuntimeImageBuilder(
              client,
              compiler,
              busybox,
              tini,
              RuntimeImageBuilder.DEFAULT_MODULES,
              Path.of(System.getProperty("java.io.tmpdir")),
              progress)
          .ensure(tag);
    } catch (IOException e) {
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE, "cannot talk to the docker daemon: " + e, e);
    } catch (RuntimeException e) {
      if (e instanceof BackendUnavailableException) {
        throw e;
      }
      throw new BackendUnavailableException(
          BackendUnavailableException.UNAVAILABLE,
          "cannot build the runtime image " + tag + ": " + e.getMessage(),
          e);
    }
  }

  private static Path hostBinary(List<Path> candidates, String what) {
    Optional<Path> found =
        candidates.stream()
            .filter(Files::isRegularFile)
            .map(LocalRuntimeImage::real)
            .flatMap(Optional::stream)
            .findFirst();
    return found.orElseThrow(
        () ->
            new BackendUnavailableException(
                BackendUnavailableException.UNAVAILABLE,
                "no " + what + " at any of " + candidates));
  }

  private static Optional<Path> real(Path path) {
    try {
      Path real = path.toRealPath();
      return Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS) ? Optional.of(real) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
