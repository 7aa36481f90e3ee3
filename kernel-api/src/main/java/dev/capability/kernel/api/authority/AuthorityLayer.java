package dev.capability.kernel.api.authority;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * One layer of authority and the constraints it places on a command. The effective authority is
 * the intersection of all layers: a command runs only when every layer allows it, and a decision
 * that refuses names the layer that did. A constraint a layer leaves empty is no constraint: the
 * layers above decide.
 *
 * @param kind which layer this is
 * @param source where the layer came from, for messages: a file path, {@code policy}, or a backend id
 * @param executables the ids of the operator's executable rules this layer allows; empty when the
 *     layer does not restrict executables
 * @param network the network modes this layer lets a command run with; empty when it does not
 *     restrict the network. For the backend layer, the modes it can hold a command to.
 * @param projectWrites the widest project-write mode this layer allows; empty when it does not
 *     restrict project writes
 * @param writeScopes repository-relative glob patterns this layer allows writes to; empty when it
 *     does not restrict paths. The patterns are checked when the layer is used, not here.
 */
public record AuthorityLayer(
    Kind kind,
    String source,
    Optional<Set<String>> executables,
    Optional<Set<NetworkMode>> network,
    Optional<ProjectWriteMode> projectWrites,
    Optional<List<String>> writeScopes) {

  /** The five layers, from the widest authority to the narrowest. */
  public enum Kind {
    /** The operator's execution policy: the most any command may do. */
    OPERATOR,
    /** What the project allows, from a contract file in or next to the project. */
    PROJECT_CONTRACT,
    /** What the active phase of the work allows (for example: only tests may change). */
    PHASE,
    /** What the active correction allows: the radius around a fix. */
    CORRECTION,
    /** What the selected backend can hold a command to. */
    BACKEND;

    /** The layer's name in decisions, messages and files: lower case, words joined by {@code -}. */
    public String layerName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  public AuthorityLayer {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(executables, "executables");
    Objects.requireNonNull(network, "network");
    Objects.requireNonNull(projectWrites, "projectWrites");
    Objects.requireNonNull(writeScopes, "writeScopes");
    if (source.isEmpty()) {
      throw new IllegalArgumentException("a layer names its source");
    }
    executables = executables.map(ids -> {
      ids.forEach(id -> Objects.requireNonNull(id, "executables element"));
      return Collections.unmodifiableSet(new TreeSet<>(ids));
    });
    network = network.map(modes -> {
      if (modes.isEmpty()) {
        throw new IllegalArgumentException("a layer lets a command run with at least one network mode");
      }
      EnumSet<NetworkMode> copy = EnumSet.noneOf(NetworkMode.class);
      copy.addAll(modes);
      return Collections.unmodifiableSet(copy);
    });
    writeScopes = writeScopes.map(List::copyOf);
    if (writeScopes.isPresent() && writeScopes.get().isEmpty()) {
      throw new IllegalArgumentException("an empty write-scope list allows no write; make project writes read-only instead");
    }
    if (writeScopes.isPresent() && projectWrites.equals(Optional.of(ProjectWriteMode.READ_ONLY))) {
      throw new IllegalArgumentException("write scopes mean nothing when project writes are read-only");
    }
  }

  /** A builder for a layer of {@code kind} from {@code source} that restricts nothing yet. */
  public static Builder builder(Kind kind, String source) {
    return new Builder(kind, source);
  }

  /**
   * The operator layer of {@code policy}: its executable rules, its network, its project-write
   * mode and, when writes are scoped, its write scopes.
   */
  public static AuthorityLayer operator(ExecutionPolicy policy) {
    Objects.requireNonNull(policy, "policy");
    Builder b = builder(Kind.OPERATOR, "policy")
        .executables(policy.executables().stream().map(ExecutableRule::id).collect(Collectors.toSet()))
        .network(policy.network())
        .projectWrites(policy.projectWrites());
    if (policy.projectWrites() == ProjectWriteMode.SCOPED) {
      b.writeScopes(policy.writeScopes());
    }
    return b.build();
  }

  /**
   * The backend layer of a backend with {@code capabilities}. A backend can always leave a
   * command the host's network; it can take the network away only with
   * {@link IsolationCapability#NETWORK_NAMESPACE}, and confine it to the egress proxy only with
   * {@link IsolationCapability#FILTERED_EGRESS}. It restricts nothing else: writes are held to
   * the scopes by the audit on every backend, and prevented up front where the backend can.
   */
  public static AuthorityLayer backend(String id, Set<IsolationCapability> capabilities) {
    Objects.requireNonNull(capabilities, "capabilities");
    Set<NetworkMode> modes = EnumSet.of(NetworkMode.HOST);
    if (capabilities.contains(IsolationCapability.NETWORK_NAMESPACE)) {
      modes.add(NetworkMode.NONE);
    }
    if (capabilities.contains(IsolationCapability.FILTERED_EGRESS)) {
      modes.add(NetworkMode.FILTERED);
    }
    return builder(Kind.BACKEND, id).networkModes(modes).build();
  }

  /** Builds an {@link AuthorityLayer}; every constraint starts unrestricted. */
  public static final class Builder {
    private final Kind kind;
    private final String source;
    private @Nullable Set<String> executables;
    private @Nullable Set<NetworkMode> network;
    private @Nullable ProjectWriteMode projectWrites;
    private @Nullable List<String> writeScopes;

    private Builder(Kind kind, String source) {
      this.kind = Objects.requireNonNull(kind, "kind");
      this.source = Objects.requireNonNull(source, "source");
    }

    /** Allows only the executable rules with these ids. */
    public Builder executables(Set<String> ids) {
      this.executables = Set.copyOf(Objects.requireNonNull(ids, "ids"));
      return this;
    }

    /** Allows only the executable rules with these ids. */
    public Builder executables(String... ids) {
      return executables(Set.of(ids));
    }

    /**
     * Allows {@code widest} and every narrower mode, in the order {@code NONE < FILTERED < HOST}:
     * {@code NONE} allows only {@code NONE}, {@code FILTERED} allows {@code NONE} and {@code FILTERED}.
     */
    public Builder network(NetworkMode widest) {
      Objects.requireNonNull(widest, "widest");
      EnumSet<NetworkMode> modes = EnumSet.noneOf(NetworkMode.class);
      for (NetworkMode mode : NetworkMode.values()) {
        if (mode.compareTo(widest) <= 0) {
          modes.add(mode);
        }
      }
      this.network = modes;
      return this;
    }

    /** Allows exactly these network modes; for a backend, the modes it can hold a command to. */
    public Builder networkModes(Set<NetworkMode> modes) {
      this.network = Set.copyOf(Objects.requireNonNull(modes, "modes"));
      return this;
    }

    /** Allows at most {@code widest}: {@code READ_ONLY} forbids every write. */
    public Builder projectWrites(ProjectWriteMode widest) {
      this.projectWrites = Objects.requireNonNull(widest, "widest");
      return this;
    }

    /** Allows writes only to paths matching one of {@code patterns}. */
    public Builder writeScopes(List<String> patterns) {
      this.writeScopes = List.copyOf(Objects.requireNonNull(patterns, "patterns"));
      return this;
    }

    public AuthorityLayer build() {
      return new AuthorityLayer(
          kind, source, Optional.ofNullable(executables), Optional.ofNullable(network), Optional.ofNullable(projectWrites),
          Optional.ofNullable(writeScopes));
    }
  }
}
