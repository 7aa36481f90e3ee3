package dev.capability.ledger;

import java.util.Objects;

/**
 * What {@code verify} found, in two separate findings: the <em>integrity</em> of what is stored
 * (does every record hash to the chain, and does the chain agree with every signed checkpoint)
 * and its <em>completeness</em> (is every record a checkpoint covered still there).
 *
 * @param integrity {@link Status#INTACT}, {@link Status#CHAIN_BROKEN}, {@link
 *     Status#CHECKPOINT_MISMATCH}, {@link Status#UNCHAINED_RECORD} or {@link Status#STORAGE_CORRUPT}
 * @param completeness {@link Status#INTACT}, {@link Status#TRUNCATED_BELOW_CHECKPOINT}, {@link
 *     Status#CHECKPOINT_INVALID} or {@link Status#NO_CHECKPOINT}
 * @param records how many records the chain holds up to the first break
 * @param headSequence the highest sequence number stored
 * @param headHash the hash of the last record of the unbroken chain (the genesis hash when empty)
 * @param checkpointSequence the highest sequence a valid checkpoint covers, 0 when none
 * @param uncheckpointed records after {@code checkpointSequence}: chained, but not yet covered by a
 *     signature, so their deletion or replacement cannot be detected
 */
public record LedgerVerification(
    Finding integrity,
    Finding completeness,
    long records,
    long headSequence,
    String headHash,
    long checkpointSequence,
    long uncheckpointed) {

  public LedgerVerification {
    Objects.requireNonNull(integrity, "integrity");
    Objects.requireNonNull(completeness, "completeness");
    Objects.requireNonNull(headHash, "headHash");
  }

  /** The verdict codes; they are stable, scripts depend on them. */
  public enum Status {
    /** Nothing wrong found. */
    INTACT,
    /** A record is missing, out of place, or does not hash to the chain; see the sequence. */
    CHAIN_BROKEN,
    /** The chain is consistent but differs from a signed checkpoint: history was rewritten. */
    CHECKPOINT_MISMATCH,
    /** A row in a record table belongs to no record of the chain. */
    UNCHAINED_RECORD,
    /** SQLite's own check of the file failed. */
    STORAGE_CORRUPT,
    /** Records that a signed checkpoint covered are gone from the end of the ledger. */
    TRUNCATED_BELOW_CHECKPOINT,
    /** A checkpoint line is malformed, belongs to another ledger, or its signature does not verify. */
    CHECKPOINT_INVALID,
    /** The ledger holds records but no checkpoint at all, so its completeness cannot be shown. */
    NO_CHECKPOINT
  }

  /**
   * One finding.
   *
   * @param status the verdict
   * @param sequence the first sequence number concerned, 0 when none
   * @param message what was found, for a person
   */
  public record Finding(Status status, long sequence, String message) {
    public Finding {
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(message, "message");
    }

    public static Finding intact(String message) {
      return new Finding(Status.INTACT, 0, message);
    }

    public boolean intact() {
      return status == Status.INTACT;
    }
  }

  /** True when both integrity and completeness are intact. */
  public boolean intact() {
    return integrity.intact() && completeness.intact();
  }

  /** The finding to report first: integrity when it failed, else completeness. */
  public Finding verdict() {
    return integrity.intact() ? completeness : integrity;
  }

  /** The status of {@link #verdict()}. */
  public Status status() {
    return verdict().status();
  }

  /** The sequence of {@link #verdict()}. */
  public long sequence() {
    return verdict().sequence();
  }

  /** The message of {@link #verdict()}. */
  public String message() {
    return verdict().message();
  }
}
