package dev.capability.kernel.api.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One revision of a repository's project contract: the durable authority layer between the
 * operator policy and a work plan's phases.
 *
 * @param contractHash the SHA-256 of the contract's canonical JSON, as {@code sha256:<hex>}
 * @param contract the contract's JSON form, as plain maps, lists, strings, numbers and booleans
 */
public record ContractRecord(String contractHash, Map<String, @Nullable Object> contract) {
  public ContractRecord {
    Records.requireText(contractHash, "contractHash");
    contract = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(contract, "contract")));
  }
}
