package dev.capability.capability.runtime;

import dev.capability.capability.runtime.internal.plan.JsonValues;
import dev.capability.kernel.api.json.CanonicalJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one run is bound to: the capability's identity, version, module and package digests,
 * the input, the requested effects, the executor and what it advertises, and the policy hash.
 * {@link #fingerprint()} is SHA-256 over the RFC 8785 canonical JSON of {@link #toJson()}.
 *
 * <p>A plan is a value: two plans are equal when their fingerprints are, that is when their
 * canonical JSON is the same. {@link CapabilityPlans#fromJson(String)} rebuilds a plan from its
 * JSON, so a plan approved in one process can be verified in another.
 */
public final class CapabilityPlan {
  private final Map<String, Object> canonical;
  private final List<Effect> effects;
  private final String fingerprint;
  private final String capability;

  CapabilityPlan(CapabilityDescriptor descriptor, Object input, ExecutorIdentity executor, String policyHash) {
    this(body(descriptor, input, executor, policyHash), descriptor.effects());
  }

  /**
   * A plan of {@code canonical}, whose {@code effects} member is the canonical form of {@code
   * effects}.
   *
   * @throws IllegalArgumentException when {@code canonical} has no canonical JSON form
   */
  CapabilityPlan(Map<String, Object> canonical, List<Effect> effects) {
    @SuppressWarnings("unchecked")
    Map<String, Object> frozen = (Map<String, Object>) JsonValues.frozen(canonical);
    this.canonical = frozen;
    this.effects = List.copyOf(effects);
    @SuppressWarnings("unchecked")
    Map<String, Object> capability = (Map<String, Object>) canonical.get("capability");
    this.capability = capability.get("name") + "@" + capability.get("version");
    this.fingerprint = CanonicalJson.sha256(this.canonical);
  }

  private static Map<String, Object> body(CapabilityDescriptor descriptor, Object input, ExecutorIdentity executor, String policyHash) {
    Objects.requireNonNull(descriptor, "descriptor");
    Objects.requireNonNull(executor, "executor");
    Objects.requireNonNull(policyHash, "policyHash");
    Map<String, Object> capability = new LinkedHashMap<>();
    capability.put("name", descriptor.name());
    capability.put("version", descriptor.version());
    capability.put("entry", Map.of("module", descriptor.entry().module(), "class", descriptor.entry().className()));
    capability.put("modules", descriptor.moduleDigests());
    capability.put("package", descriptor.packageDigest());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("capability", capability);
    body.put("input", input);
    body.put("effects", descriptor.effects().stream().map(Effect::toCanonical).toList());
    body.put("executor", Map.of("id", executor.id(), "advertises", executor.advertises()));
    body.put("policy", policyHash);
    return body;
  }

  /** Lower-case hex SHA-256 of the canonical plan: 64 characters. */
  public String fingerprint() {
    return fingerprint;
  }

  /** The effects the plan requests: those the manifest declares. */
  public List<Effect> effects() {
    return effects;
  }

  /** The capability as {@code name@version}. */
  public String capability() {
    return capability;
  }

  /** The policy hash the plan was made for. */
  public String policyHash() {
    return (String) canonical.get("policy");
  }

  /**
   * The plan as a JSON object of plain maps, lists and values: what {@link #canonicalJson()}
   * serializes. Unmodifiable at every level.
   */
  public Map<String, Object> toJson() {
    return canonical;
  }

  /** The canonical JSON text the fingerprint is computed over. */
  public String canonicalJson() {
    return CanonicalJson.serialize(canonical);
  }

  /** Top-level fields ({@code capability}, {@code input}, ...) whose values differ from {@code other}. */
  List<String> differences(CapabilityPlan other) {
    return canonical.keySet().stream()
        .filter(key -> !CanonicalJson.serialize(canonical.get(key)).equals(CanonicalJson.serialize(other.canonical.get(key))))
        .toList();
  }

  /** Equal when the fingerprints are: the same canonical JSON. */
  @Override
  public boolean equals(Object other) {
    return other instanceof CapabilityPlan plan && plan.fingerprint.equals(fingerprint);
  }

  @Override
  public int hashCode() {
    return fingerprint.hashCode();
  }

  @Override
  public String toString() {
    return "CapabilityPlan[" + fingerprint + "]";
  }
}
