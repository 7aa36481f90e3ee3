package dev.capability.kernel.api.policy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Allows one executable and says which argv it may get.
 *
 * <p>The executable is named either by bare {@link #name()}, which matches only an argv[0] equal
 * to it (so never one with a path separator or an extension), or by exact canonical {@link
 * #path()}, which matches only an argv[0] equal to that absolute path. Either may be pinned by
 * the SHA-256 of the file's bytes.
 *
 * <p>The arguments after argv[0] are allowed when they equal one of {@link #exactArguments()},
 * or else when they satisfy {@link #arguments()}.
 *
 * @param id the rule's key in the policy, used in rule paths such as {@code executables.git}
 * @param name the bare name argv[0] must equal; empty when the rule matches by path
 * @param path the absolute canonical path argv[0] must equal; empty when the rule matches by name
 * @param sha256 lower-case hex SHA-256 the resolved file's bytes must have, when pinned
 * @param exactArguments argument lists (after argv[0]) allowed exactly as given
 * @param arguments typed rules for the arguments, when the rule has them
 * @param examples argv arrays this rule must allow and the policy must refuse
 * @param toolConfiguration repository-relative files that change what the executable does, each
 *     with what it must be; the kernel hashes them into the attestation before every run
 * @param acceptsArbitraryCode the operator's statement that the typed rules may let a request
 *     choose a program for the executable's own language ({@code awk}'s program, a {@code sed}
 *     script that is not a {@link ValueKind#SED_SCRIPT}); a policy with such rules is refused
 *     without it
 */
public record ExecutableRule(
    String id,
    Optional<String> name,
    Optional<Path> path,
    Optional<String> sha256,
    List<List<String>> exactArguments,
    Optional<ArgumentRules> arguments,
    PolicyExamples examples,
    Map<String, ToolConfigurationPin> toolConfiguration,
    boolean acceptsArbitraryCode) {

  public ExecutableRule {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(sha256, "sha256");
    Objects.requireNonNull(exactArguments, "exactArguments");
    exactArguments = exactArguments.stream()
        .map(exact -> List.copyOf(Objects.requireNonNull(exact, "exactArguments element")))
        .toList();
    Objects.requireNonNull(arguments, "arguments");
    Objects.requireNonNull(examples, "examples");
    Objects.requireNonNull(toolConfiguration, "toolConfiguration");
    TreeMap<String, ToolConfigurationPin> files = new TreeMap<>();
    toolConfiguration.forEach((file, pin) -> files.put(
        Objects.requireNonNull(file, "toolConfiguration key"), Objects.requireNonNull(pin, "toolConfiguration value")));
    toolConfiguration = Collections.unmodifiableSortedMap(files);
    if (name.isPresent() == path.isPresent()) {
      throw new IllegalArgumentException("an executable rule names exactly one of name and path");
    }
    if (exactArguments.isEmpty() && arguments.isEmpty()) {
      throw new IllegalArgumentException("an executable rule allows exact arguments, typed arguments, or both");
    }
  }

  /** How this rule matches argv[0]. */
  public enum Matching {
    /** argv[0] equals the bare {@link #name()}. */
    NAME,
    /** argv[0] equals the canonical {@link #path()}. */
    PATH
  }

  /** Whether this rule matches by bare name or by canonical path. */
  public Matching matching() {
    return name.isPresent() ? Matching.NAME : Matching.PATH;
  }

  /** A rule for the bare name {@code name}; its id is the name unless set otherwise. */
  public static Builder named(String name) {
    return new Builder(Objects.requireNonNull(name, "name"), null, name);
  }

  /** A rule for the canonical path {@code path}, with the id {@code id}. */
  public static Builder atPath(String id, Path path) {
    return new Builder(null, Objects.requireNonNull(path, "path"), Objects.requireNonNull(id, "id"));
  }

  /** A builder holding this rule. */
  public Builder toBuilder() {
    Builder b = new Builder(name.orElse(null), path.orElse(null), id);
    b.sha256 = sha256.orElse(null);
    b.exactArguments.addAll(exactArguments);
    b.arguments = arguments.orElse(null);
    b.match.addAll(examples.match());
    b.notMatch.addAll(examples.notMatch());
    b.toolConfiguration.putAll(toolConfiguration);
    b.acceptsArbitraryCode = acceptsArbitraryCode;
    return b;
  }

  /** Builds an {@link ExecutableRule}. */
  public static final class Builder {
    private final @Nullable String name;
    private final @Nullable Path path;
    private String id;
    private @Nullable String sha256;
    private final List<List<String>> exactArguments = new ArrayList<>();
    private @Nullable ArgumentRules arguments;
    private final List<List<String>> match = new ArrayList<>();
    private final List<List<String>> notMatch = new ArrayList<>();
    private final Map<String, ToolConfigurationPin> toolConfiguration = new TreeMap<>();
    private boolean acceptsArbitraryCode;

    private Builder(@Nullable String name, @Nullable Path path, String id) {
      this.name = name;
      this.path = path;
      this.id = id;
    }

    /** The rule's key in the policy. */
    public Builder id(String id) {
      this.id = Objects.requireNonNull(id, "id");
      return this;
    }

    /** Pins the executable to lower-case hex SHA-256 {@code sha256}. */
    public Builder sha256(String sha256) {
      this.sha256 = Objects.requireNonNull(sha256, "sha256");
      return this;
    }

    /** Allows exactly these arguments after argv[0]; may be called more than once. */
    public Builder exact(String... arguments) {
      exactArguments.add(List.of(arguments));
      return this;
    }

    /** Allows arguments that satisfy {@code rules}. */
    public Builder arguments(ArgumentRules rules) {
      this.arguments = Objects.requireNonNull(rules, "rules");
      return this;
    }

    /** Adds an argv (argv[0] included) this rule must allow. */
    public Builder match(String... argv) {
      match.add(List.of(argv));
      return this;
    }

    /** Names the repository-relative tool configuration file {@code file} and what it must be. */
    public Builder toolConfiguration(String file, ToolConfigurationPin pin) {
      toolConfiguration.put(Objects.requireNonNull(file, "file"), Objects.requireNonNull(pin, "pin"));
      return this;
    }

    /** States that the typed rules may let a request choose code for the executable to run; see {@link ExecutableRule}. */
    public Builder acceptsArbitraryCode(boolean accepts) {
      this.acceptsArbitraryCode = accepts;
      return this;
    }

    /** Adds an argv (argv[0] included) the policy must refuse. */
    public Builder notMatch(String... argv) {
      notMatch.add(List.of(argv));
      return this;
    }

    /**
     * The rule.
     *
     * @throws IllegalArgumentException when it allows neither exact nor typed arguments
     */
    public ExecutableRule build() {
      return new ExecutableRule(
          id,
          Optional.ofNullable(name),
          Optional.ofNullable(path),
          Optional.ofNullable(sha256),
          exactArguments,
          Optional.ofNullable(arguments),
          new PolicyExamples(match, notMatch),
          toolConfiguration,
          acceptsArbitraryCode);
    }
  }
}
