package dev.capability.ledger;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * How a ledger is opened. Unset paths default to files beside the database: {@code ledger-key}
 * (the Ed25519 private key, mode 0600), {@code ledger-key.pub} (its public key) and {@code
 * checkpoints} (the append-only file of signed checkpoints). Keeping the key, or at least a copy of
 * the public key and the checkpoints, where the writers of the database cannot write is what makes
 * the checkpoints worth having; see {@code docs/ledger.md}.
 */
public final class LedgerOptions {
  private final @Nullable Path keyFile;
  private final @Nullable Path publicKeyFile;
  private final @Nullable Path checkpointFile;
  private final Durability durability;
  private final int checkpointEvery;
  private final @Nullable Duration checkpointMaxDelay;
  private final Duration busyTimeout;
  private final Clock clock;

  private LedgerOptions(Builder b) {
    this.keyFile = b.keyFile;
    this.publicKeyFile = b.publicKeyFile;
    this.checkpointFile = b.checkpointFile;
    this.durability = b.durability;
    this.checkpointEvery = b.checkpointEvery;
    this.checkpointMaxDelay = b.checkpointMaxDelay;
    this.busyTimeout = b.busyTimeout;
    this.clock = b.clock;
  }

  /** Keys and checkpoints beside the database, {@link Durability#NORMAL}, a checkpoint every 1,000 records or second. */
  public static LedgerOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.keyFile = keyFile;
    b.publicKeyFile = publicKeyFile;
    b.checkpointFile = checkpointFile;
    b.durability = durability;
    b.checkpointEvery = checkpointEvery;
    b.checkpointMaxDelay = checkpointMaxDelay;
    b.busyTimeout = busyTimeout;
    b.clock = clock;
    return b;
  }

  /** The private key file for a database at {@code dbFile}. */
  public Path keyFile(Path dbFile) {
    return keyFile != null ? keyFile : sibling(dbFile, "ledger-key");
  }

  /** The public key file for a database at {@code dbFile}. */
  public Path publicKeyFile(Path dbFile) {
    if (publicKeyFile != null) {
      return publicKeyFile;
    }
    Path key = keyFile(dbFile);
    return key.resolveSibling(key.getFileName() + ".pub");
  }

  /** The checkpoint file for a database at {@code dbFile}. */
  public Path checkpointFile(Path dbFile) {
    return checkpointFile != null ? checkpointFile : sibling(dbFile, "checkpoints");
  }

  public Durability durability() {
    return durability;
  }

  /** A checkpoint is written once this many records were appended since the last one. */
  public int checkpointEvery() {
    return checkpointEvery;
  }

  /** A checkpoint is written at most this long after a record it would cover; empty: only by count and on close. */
  public Optional<Duration> checkpointMaxDelay() {
    return Optional.ofNullable(checkpointMaxDelay);
  }

  /** How long an append waits for other writers before it fails with {@code LEDGER_BUSY}. */
  public Duration busyTimeout() {
    return busyTimeout;
  }

  public Clock clock() {
    return clock;
  }

  private static Path sibling(Path dbFile, String name) {
    Path absolute = dbFile.toAbsolutePath();
    return absolute.resolveSibling(name);
  }

  /** Builds {@link LedgerOptions}. */
  public static final class Builder {
    private @Nullable Path keyFile;
    private @Nullable Path publicKeyFile;
    private @Nullable Path checkpointFile;
    private Durability durability = Durability.NORMAL;
    private int checkpointEvery = 1000;
    private @Nullable Duration checkpointMaxDelay = Duration.ofSeconds(1);
    private Duration busyTimeout = Duration.ofSeconds(30);
    private Clock clock = Clock.systemUTC();

    private Builder() {}

    /** Where the Ed25519 private key is kept (created, mode 0600, when a new ledger is created). */
    public Builder keyFile(Path keyFile) {
      this.keyFile = Objects.requireNonNull(keyFile, "keyFile").toAbsolutePath();
      return this;
    }

    /** Where the public key is read to verify checkpoints; default: the key file's name plus {@code .pub}. */
    public Builder publicKeyFile(Path publicKeyFile) {
      this.publicKeyFile = Objects.requireNonNull(publicKeyFile, "publicKeyFile").toAbsolutePath();
      return this;
    }

    /** Where signed checkpoints are appended. */
    public Builder checkpointFile(Path checkpointFile) {
      this.checkpointFile = Objects.requireNonNull(checkpointFile, "checkpointFile").toAbsolutePath();
      return this;
    }

    public Builder durability(Durability durability) {
      this.durability = Objects.requireNonNull(durability, "durability");
      return this;
    }

    /** Checkpoint once this many records were appended since the last checkpoint; 1 checkpoints every commit. */
    public Builder checkpointEvery(int records) {
      if (records < 1) {
        throw new IllegalArgumentException("checkpointEvery must be at least 1, was " + records);
      }
      this.checkpointEvery = records;
      return this;
    }

    /** Checkpoint at most this long after an uncovered record; null: only by count and on close. */
    public Builder checkpointMaxDelay(@Nullable Duration delay) {
      if (delay != null && (delay.isNegative() || delay.isZero())) {
        throw new IllegalArgumentException("checkpointMaxDelay must be positive, was " + delay);
      }
      this.checkpointMaxDelay = delay;
      return this;
    }

    public Builder busyTimeout(Duration busyTimeout) {
      Objects.requireNonNull(busyTimeout, "busyTimeout");
      if (busyTimeout.isNegative() || busyTimeout.isZero()) {
        throw new IllegalArgumentException("busyTimeout must be positive, was " + busyTimeout);
      }
      this.busyTimeout = busyTimeout;
      return this;
    }

    /** The clock of {@code recordedAt} and checkpoint times. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public LedgerOptions build() {
      return new LedgerOptions(this);
    }
  }
}
