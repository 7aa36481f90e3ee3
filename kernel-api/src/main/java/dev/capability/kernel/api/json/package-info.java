/**
 * RFC 8785 JSON Canonicalization Scheme (JCS) over plain Java values, the one byte form every hash
 * in the kernel is computed over: policy hashes, command-spec hashes, plan fingerprints and the
 * ledger chain. Hosts use {@link dev.capability.kernel.api.json.CanonicalJson} to recompute those
 * hashes when they verify an attestation. See {@code docs/canonical-json.md}.
 */
@NullMarked
package dev.capability.kernel.api.json;

import org.jspecify.annotations.NullMarked;
