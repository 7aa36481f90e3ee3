package dev.capability.mcp;

import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What the operator configures, never a client: the directories the tools may touch, the execution
 * policy file, the effect policy for capabilities, and the capability plans approved in advance.
 *
 * @param allowedRoots the directories repositories must lie in; kept as their real paths
 * @param policyFile the operator's execution policy (JSON), loaded for every command with the repository
 * @param effectPolicyFile the effect policy capability runs are decided under; null for deny-all
 * @param preApprovedPlans the capability plan fingerprints (64 lowercase hex digits) the operator approved
 * @param hostEnvironment the environment commands may take named variables from (the policy decides which)
 * @param evidence where tools record and ledger tools read
 */
public record McpServerConfig(
    List<Path> allowedRoots,
    Path policyFile,
    @Nullable Path effectPolicyFile,
    Set<String> preApprovedPlans,
    Map<String, String> hostEnvironment,
    EvidenceAccess evidence) {
  private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");

  /**
   * @throws CapabilityException {@link McpCodes#CONFIG_INVALID} when no root is given, a root is
   *     not an existing directory, the policy file is missing, or a pre-approved plan is not a
   *     fingerprint
   */
  public McpServerConfig {
    Objects.requireNonNull(policyFile, "policyFile");
    Objects.requireNonNull(evidence, "evidence");
    if (allowedRoots.isEmpty()) {
      throw new CapabilityException(McpCodes.CONFIG_INVALID,
          "no allowed root: name the directories the server may touch (--allowed-root or CAPABILITY_ALLOWED_ROOTS)");
    }
    List<Path> real = new ArrayList<>();
    for (Path root : allowedRoots) {
      try {
        Path resolved = root.toRealPath();
        if (!Files.isDirectory(resolved)) {
          throw new CapabilityException(McpCodes.CONFIG_INVALID, "allowed root '" + root + "' is not a directory");
        }
        real.add(resolved);
      } catch (IOException e) {
        throw new CapabilityException(McpCodes.CONFIG_INVALID, "allowed root '" + root + "' does not exist or cannot be resolved: " + e.getMessage());
      }
    }
    allowedRoots = List.copyOf(real);
    if (!Files.isRegularFile(policyFile)) {
      throw new CapabilityException(McpCodes.CONFIG_INVALID, "the execution policy '" + policyFile + "' is not a file");
    }
    for (String fingerprint : preApprovedPlans) {
      if (!FINGERPRINT.matcher(fingerprint).matches()) {
        throw new CapabilityException(McpCodes.CONFIG_INVALID,
            "pre-approved plan '" + fingerprint + "' is not a plan fingerprint (64 lowercase hex digits, as capability plan prints it)");
      }
    }
    preApprovedPlans = Set.copyOf(preApprovedPlans);
    hostEnvironment = Map.copyOf(hostEnvironment);
  }
}
