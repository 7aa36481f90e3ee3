package dev.capability.workflow;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A repository's project contract: the second authority layer, between the operator's policy and
 * the active phase, and what the project accepts as evidence. It can only narrow the policy.
 *
 * @param writeScopes minimatch globs the project allows writes to
 * @param protectedPaths globs no phase may change, added to the policy's protected paths
 * @param executables the ids of the operator's executable rules the project allows; empty when it
 *     does not restrict them
 * @param network the widest network the project allows; empty when it does not restrict it
 * @param evidence the project's own commands per category, recognised as evidence besides the
 *     common tools
 * @param critic the critic, if any
 * @param assurance what the contract demands of plans
 */
public record ProjectContract(
    List<String> writeScopes,
    List<String> protectedPaths,
    Optional<Set<String>> executables,
    Optional<NetworkMode> network,
    Map<EvidenceCategory, List<String>> evidence,
    Optional<CriticConfig> critic,
    Assurance assurance) {

  /** Where the contract layer says it came from in decisions. */
  public static final String LAYER_SOURCE = "project contract";

  public ProjectContract {
    writeScopes = List.copyOf(writeScopes);
    protectedPaths = List.copyOf(protectedPaths);
    executables = executables.map(Set::copyOf);
    Objects.requireNonNull(network, "network");
    EnumMap<EvidenceCategory, List<String>> copy = new EnumMap<>(EvidenceCategory.class);
    evidence.forEach((category, commands) -> copy.put(category, List.copyOf(commands)));
    evidence = Collections.unmodifiableMap(copy);
    Objects.requireNonNull(critic, "critic");
    Objects.requireNonNull(assurance, "assurance");
  }

  /** The contract as the kernel's project-contract layer. */
  public AuthorityLayer layer() {
    AuthorityLayer.Builder b = AuthorityLayer.builder(Kind.PROJECT_CONTRACT, LAYER_SOURCE).writeScopes(writeScopes);
    executables.ifPresent(b::executables);
    network.ifPresent(b::network);
    return b.build();
  }
}
