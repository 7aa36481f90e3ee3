package dev.capability.acquire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.Check;
import dev.capability.acquire.Observations;
import dev.capability.acquire.TrustDecision;
import dev.capability.acquire.TrustPolicy;
import dev.capability.acquire.spi.OperatorFileFields;
import dev.capability.capability.runtime.support.StrictJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * A policy that requires, beyond integrity, any of: the declared identity, a verified signature,
 * verified provenance, a verified Sigstore bundle.
 */
public record RequirementPolicy(
    String name, boolean requireIdentity, boolean requireSignature, boolean requireProvenance, boolean requireSigstore)
    implements TrustPolicy {
  private static final Set<String> FIELDS = Set.of("name", "requireIdentity", "requireSignature", "requireProvenance", "requireSigstore");

  public static RequirementPolicy load(Path file) {
    JsonNode root;
    try {
      root = new StrictJson(64 * 1024, 8).parse(Files.readAllBytes(file), file.toString());
    } catch (IOException e) {
      throw invalid("cannot read trust policy " + file + ": " + e.getMessage());
    } catch (StrictJson.StrictJsonException e) {
      throw invalid(e.getMessage());
    }
    if (!root.isObject()) {
      throw invalid(file + " is not a JSON object");
    }
    OperatorFileFields.onlyKnown(root, FIELDS, file.toString(), AcquisitionCodes.TRUST_POLICY_INVALID);
    JsonNode name = root.get("name");
    if (name == null || !name.isTextual() || !name.asText().matches("[A-Za-z0-9_.-]{1,64}")) {
      throw invalid(file + " needs a \"name\" of 1 to 64 letters, digits, '_', '.' or '-'");
    }
    boolean requireIdentity = root.has("requireIdentity") && flag(root, "requireIdentity", file);
    boolean requireSigstore = root.has("requireSigstore") && flag(root, "requireSigstore", file);
    return new RequirementPolicy(
        name.asText(), requireIdentity, flag(root, "requireSignature", file), flag(root, "requireProvenance", file), requireSigstore);
  }

  @Override
  public TrustDecision decide(Observations observations) {
    if (requireIdentity && !observations.identity().isVerified()) {
      return refuse(observations.identity(), "policy " + name + " requires the package to declare the coordinates' identity");
    }
    if (requireSignature && !observations.signature().isVerified()) {
      return refuse(observations.signature(), "policy " + name + " requires a verified signature");
    }
    if (requireProvenance && !observations.provenance().isVerified()) {
      return refuse(observations.provenance(), "policy " + name + " requires verified provenance");
    }
    if (requireSigstore && !observations.sigstore().isVerified()) {
      return refuse(observations.sigstore(), "policy " + name + " requires a verified Sigstore bundle");
    }
    return TrustDecision.accept(name, "policy " + name + " is satisfied: " + summary(observations));
  }

  private TrustDecision refuse(Check check, String why) {
    return TrustDecision.refuse(name, check.code(), why + ": " + check.detail());
  }

  private static String summary(Observations observations) {
    return "integrity " + observations.integrity().status()
        + ", identity " + observations.identity().status()
        + ", signature " + observations.signature().status()
        + ", provenance " + observations.provenance().status()
        + ", sigstore " + observations.sigstore().status();
  }

  private static boolean flag(JsonNode root, String field, Path file) {
    JsonNode value = root.get(field);
    if (value == null || !value.isBoolean()) {
      throw invalid(file + " needs the boolean \"" + field + "\"");
    }
    return value.asBoolean();
  }

  private static AcquisitionRefusedException invalid(String message) {
    return new AcquisitionRefusedException(AcquisitionCodes.TRUST_POLICY_INVALID, message);
  }
}
