package dev.capability.workflow.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.core.AuthorityLayers;
import dev.capability.workflow.Assurance;
import dev.capability.workflow.CriticConfig;
import dev.capability.workflow.EvidenceCategory;
import dev.capability.workflow.ProjectContract;
import dev.capability.workflow.WorkflowCodes;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads and writes the JSON form of a {@link ProjectContract} ({@code docs/schemas/project-contract.schema.json}). */
public final class ContractJson {
  private ContractJson() {}

  /** The members a contract may have. */
  public static final Set<String> MEMBERS = Set.of(
      "version", "description", "writeScopes", "protectedPaths", "executables", "network", "evidence", "critic", "assurance");
  static final Set<String> CRITIC_MEMBERS = Set.of("command", "blocking");
  static final int MAX_COMMAND = 4096;
  static final int MAX_TEXT = 1024;
  static final int MAX_LIST = 256;
  private static final Pattern EXECUTABLE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_+-]{0,63}");
  private static final JsonDocuments DOCUMENT = new JsonDocuments(WorkflowCodes.CONTRACT_INVALID, "contract");

  /** The contract in {@code json}. @throws dev.capability.workflow.WorkflowException {@code CONTRACT_INVALID} */
  public static ProjectContract read(String json) {
    return read(DOCUMENT.parse(json));
  }

  static ProjectContract read(JsonNode root) {
    DOCUMENT.object(root, "", MEMBERS, Set.of("version", "writeScopes"));
    DOCUMENT.version(root);
    if (root.has("description")) {
      DOCUMENT.text(root.get("description"), "/description", MAX_TEXT, true);
    }
    List<String> writeScopes = DOCUMENT.texts(root.get("writeScopes"), "/writeScopes", false, MAX_LIST, MAX_TEXT);
    requireWriteScopes(DOCUMENT, writeScopes, "/writeScopes");
    List<String> protectedPaths = root.has("protectedPaths")
        ? DOCUMENT.texts(root.get("protectedPaths"), "/protectedPaths", true, MAX_LIST, MAX_TEXT)
        : List.of();
    Optional<Set<String>> executables = Optional.empty();
    if (root.has("executables")) {
      List<String> ids = DOCUMENT.texts(root.get("executables"), "/executables", true, MAX_LIST, 64);
      for (int i = 0; i < ids.size(); i++) {
        if (!EXECUTABLE_ID.matcher(ids.get(i)).matches()) {
          throw DOCUMENT.invalid("/executables/" + i, "\"" + ids.get(i) + "\" is not an executable rule id of a policy");
        }
      }
      executables = Optional.of(Set.copyOf(ids));
    }
    Optional<NetworkMode> network = Optional.empty();
    if (root.has("network")) {
      String mode = DOCUMENT.text(root.get("network"), "/network", 16, false);
      network = Optional.of(switch (mode) {
        case "none" -> NetworkMode.NONE;
        case "filtered" -> NetworkMode.FILTERED;
        case "host" -> NetworkMode.HOST;
        default -> throw DOCUMENT.invalid("/network", "\"" + mode + "\" is not one of [none, filtered, host]");
      });
    }
    Map<EvidenceCategory, List<String>> evidence = new EnumMap<>(EvidenceCategory.class);
    if (root.has("evidence")) {
      Set<String> names = new java.util.HashSet<>();
      for (EvidenceCategory category : EvidenceCategory.values()) {
        names.add(category.jsonName());
      }
      JsonNode node = DOCUMENT.object(root.get("evidence"), "/evidence", names, Set.of());
      for (EvidenceCategory category : EvidenceCategory.values()) {
        if (node.has(category.jsonName())) {
          evidence.put(category, DOCUMENT.texts(node.get(category.jsonName()), "/evidence/" + category.jsonName(), true, MAX_LIST, MAX_COMMAND));
        }
      }
    }
    Optional<CriticConfig> critic = Optional.empty();
    if (root.has("critic")) {
      JsonNode node = DOCUMENT.object(root.get("critic"), "/critic", CRITIC_MEMBERS, Set.of("command", "blocking"));
      critic = Optional.of(new CriticConfig(
          DOCUMENT.text(node.get("command"), "/critic/command", MAX_COMMAND, false), DOCUMENT.bool(node.get("blocking"), "/critic/blocking")));
    }
    Assurance assurance = Assurance.STANDARD;
    if (root.has("assurance")) {
      String level = DOCUMENT.text(root.get("assurance"), "/assurance", 16, false);
      assurance = switch (level) {
        case "standard" -> Assurance.STANDARD;
        case "high" -> Assurance.HIGH;
        default -> throw DOCUMENT.invalid("/assurance", "\"" + level + "\" is not one of [standard, high]");
      };
    }
    return new ProjectContract(writeScopes, protectedPaths, executables, network, evidence, critic, assurance);
  }

  /** The normal JSON form of {@code contract}, as stored. */
  public static Map<String, Object> toMap(ProjectContract contract) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("version", 1);
    map.put("writeScopes", contract.writeScopes());
    map.put("protectedPaths", contract.protectedPaths());
    contract.executables().ifPresent(ids -> map.put("executables", new ArrayList<>(new java.util.TreeSet<>(ids))));
    contract.network().ifPresent(mode -> map.put("network", mode.name().toLowerCase(java.util.Locale.ROOT)));
    Map<String, Object> evidence = new LinkedHashMap<>();
    contract.evidence().forEach((category, commands) -> evidence.put(category.jsonName(), commands));
    map.put("evidence", evidence);
    contract.critic().ifPresent(critic -> {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("command", critic.command());
      c.put("blocking", critic.blocking());
      map.put("critic", c);
    });
    map.put("assurance", contract.assurance().jsonName());
    return map;
  }

  /** {@code sha256:<hex>} of the contract's canonical JSON. */
  public static String hash(ProjectContract contract) {
    return "sha256:" + CanonicalJson.sha256(toMap(contract));
  }

  /**
   * Refuses a write scope the kernel would not compile, naming its pointer: the kernel's own
   * layer reader checks each pattern.
   */
  static void requireWriteScopes(JsonDocuments document, List<String> patterns, String pointer) {
    for (int i = 0; i < patterns.size(); i++) {
      Map<String, Object> layer = new LinkedHashMap<>();
      layer.put("version", 1);
      layer.put("kind", Kind.PHASE.layerName());
      layer.put("writeScopes", List.of(patterns.get(i)));
      try {
        AuthorityLayers.parse(Kind.PHASE, CanonicalJson.serialize(layer), "scope");
      } catch (AuthorityException e) {
        String message = e.getMessage();
        String prefix = "scope at /writeScopes/0: ";
        throw document.invalid(pointer + "/" + i, e.code() + ": " + (message.startsWith(prefix) ? message.substring(prefix.length()) : message));
      }
    }
  }
}
