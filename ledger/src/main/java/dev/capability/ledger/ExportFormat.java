package dev.capability.ledger;

/** How {@code export} writes records. */
public enum ExportFormat {
  /**
   * One JSON object a line for every record: {@code seq}, {@code kind}, {@code recordedAt},
   * {@code prevHash}, {@code hash} and {@code body}, enough to recompute the chain elsewhere.
   */
  JSONL,
  /**
   * One DSSE envelope a line for every execution and acquisition covered by a checkpoint, whose
   * payload is an in-toto Statement (v1) with the attestation, or the acquisition, as predicate,
   * signed with the ledger key.
   */
  INTOTO
}
