package dev.capability.backend.kubernetes.internal;

import dev.capability.backend.kubernetes.internal.NetworkPolicyProbe.Outcome;
import dev.capability.backend.kubernetes.internal.NetworkPolicyProbe.Verdict;
import dev.capability.kernel.api.Sha256;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * The last network policy probe of each cluster and namespace, kept on this machine so that
 * backends created later (every run's) know what {@code doctor} found: one file per API server
 * address and namespace in {@code ${XDG_CACHE_HOME:-$HOME/.cache}/capability/kubernetes}. A record
 * only ever withdraws a claim ({@link Verdict#NOT_ENFORCED}), so a forged or stale one can make
 * the backend claim less, never more; one that cannot be read counts as inconclusive, like no
 * probe at all.
 */
final class NetworkPolicyRecords {
  private final Optional<Path> directory;

  /** @param directory where records are kept; empty to keep none */
  NetworkPolicyRecords(Optional<Path> directory) {
    this.directory = Objects.requireNonNull(directory, "directory");
  }

  /** This user's records: {@code ${XDG_CACHE_HOME:-$HOME/.cache}/capability/kubernetes}; none when neither is absolute. */
  static NetworkPolicyRecords forUser(Map<String, String> environment) {
    String xdg = environment.get("XDG_CACHE_HOME");
    if (xdg != null && Path.of(xdg).isAbsolute()) {
      return new NetworkPolicyRecords(Optional.of(Path.of(xdg, "capability", "kubernetes")));
    }
    String home = environment.get("HOME");
    if (home != null && Path.of(home).isAbsolute()) {
      return new NetworkPolicyRecords(Optional.of(Path.of(home, ".cache", "capability", "kubernetes")));
    }
    return new NetworkPolicyRecords(Optional.empty());
  }

  /**
   * One record.
   *
   * @param outcome what the probe found
   * @param probedAt when, as an ISO-8601 instant, or why the record could not be read
   */
  record Recorded(Outcome outcome, String probedAt) {}

  private Optional<Path> file(String server, String namespace) {
    String key = Sha256.hex((server + "\n" + namespace).getBytes(StandardCharsets.UTF_8));
    return directory.map(d -> d.resolve("network-policy-" + key + ".properties"));
  }

  /** The last probe of {@code namespace} on {@code server}, if one was recorded here. */
  Optional<Recorded> read(String server, String namespace) {
    Optional<Path> file = file(server, namespace);
    if (file.isEmpty() || !Files.exists(file.get())) {
      return Optional.empty();
    }
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(file.get(), StandardCharsets.UTF_8)) {
      properties.load(in);
      Verdict verdict = Verdict.valueOf(properties.getProperty("verdict", ""));
      String reason = properties.getProperty("reason", "");
      String probedAt = Instant.parse(properties.getProperty("probedAt", "")).toString();
      if (!server.equals(properties.getProperty("server")) || !namespace.equals(properties.getProperty("namespace"))) {
        throw new IllegalArgumentException("it names another server or namespace");
      }
      return Optional.of(new Recorded(new Outcome(verdict, reason), probedAt));
    } catch (IOException | RuntimeException e) {
      return Optional.of(
          new Recorded(
              new Outcome(Verdict.INCONCLUSIVE, "the record " + file.get() + " cannot be read (" + e.getMessage() + "); run capability doctor"),
              "unknown"));
    }
  }

  /**
   * Keeps {@code outcome} as the last probe of {@code namespace} on {@code server}, replacing the
   * file at once (a private directory, a file only the user can read).
   *
   * @return why it could not be kept, or empty
   */
  Optional<String> write(String server, String namespace, Outcome outcome, Instant probedAt) {
    Optional<Path> file = file(server, namespace);
    if (file.isEmpty()) {
      return Optional.of("neither XDG_CACHE_HOME nor HOME is an absolute path, so no record is kept");
    }
    Properties properties = new Properties();
    properties.setProperty("server", server);
    properties.setProperty("namespace", namespace);
    properties.setProperty("verdict", outcome.verdict().name());
    properties.setProperty("reason", outcome.reason());
    properties.setProperty("probedAt", probedAt.toString());
    try {
      Path dir = file.get().getParent();
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Path temporary = Files.createTempFile(dir, ".network-policy-", ".tmp");
      try {
        try (Writer out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
          properties.store(out, "the last network policy probe of capability doctor");
        }
        try {
          Files.move(temporary, file.get(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temporary, file.get(), StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(temporary);
      }
      return Optional.empty();
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.of("the record " + file.get() + " could not be written: " + e);
    }
  }
}
