package dev.capability.backend.process.internal;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether commands can be started as the leader of their own session, how, and why.
 *
 * @param setsid the verified util-linux {@code setsid} the command is started through, when
 *     sessions come from that program
 * @param spawned true when the command is started with {@code posix_spawn} and {@code
 *     POSIX_SPAWN_SETSID}, which makes it lead a new session without a second {@code execve}
 * @param explanation what the probe found, for {@code diagnostics()}
 */
public record SessionSupport(Optional<Path> setsid, boolean spawned, String explanation) {

  public SessionSupport {
    Objects.requireNonNull(setsid, "setsid");
    Objects.requireNonNull(explanation, "explanation");
    setsid.ifPresent(
        path -> {
          if (!path.isAbsolute()) {
            throw new IllegalArgumentException("setsid must be an absolute path, was " + path);
          }
        });
    if (spawned && setsid.isPresent()) {
      throw new IllegalArgumentException(
          "a session comes either from posix_spawn or from setsid, not both");
    }
  }

  /** Sessions work, through posix_spawn's {@code POSIX_SPAWN_SETSID}. */
  public static SessionSupport spawned(String explanation) {
    return new SessionSupport(Optional.empty(), true, explanation);
  }

  /** Sessions work, through {@code setsid}. */
  public static SessionSupport verified(Path setsid, String explanation) {
    return new SessionSupport(Optional.of(setsid), false, explanation);
  }

  /** Sessions are unavailable; only descendants can be ended. */
  public static SessionSupport unavailable(String reason) {
    return new SessionSupport(Optional.empty(), false, reason);
  }

  public boolean available() {
    return spawned || setsid.isPresent();
  }
}
