package dev.capability.backend.process.internal;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether commands can be started as the leader of their own session, and why.
 *
 * @param setsid the verified util-linux {@code setsid}, absent when sessions are unavailable
 * @param explanation what the probe found, for {@code diagnostics()}
 */
public record SessionSupport(Optional<Path> setsid, String explanation) {

  public SessionSupport {
    Objects.requireNonNull(setsid, "setsid");
    Objects.requireNonNull(explanation, "explanation");
    setsid.ifPresent(
        path -> {
          if (!path.isAbsolute()) {
            throw new IllegalArgumentException("setsid must be an absolute path, was " + path);
          }
        });
  }

  /** Sessions work, through {@code setsid}. */
  public static SessionSupport verified(Path setsid, String explanation) {
    return new SessionSupport(Optional.of(setsid), explanation);
  }

  /** Sessions are unavailable; only descendants can be ended. */
  public static SessionSupport unavailable(String reason) {
    return new SessionSupport(Optional.empty(), reason);
  }

  public boolean available() {
    return setsid.isPresent();
  }
}
