/**
 * The SQLite evidence ledger: an append-only, hash-chained store of the kernel's records, its
 * reader, verification and export.
 */
@NullMarked
package dev.capability.ledger;

import org.jspecify.annotations.NullMarked;
