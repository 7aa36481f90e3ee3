package dev.capability.workflow.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.workflow.Phase;
import dev.capability.workflow.PlanWarning;
import dev.capability.workflow.VerificationKind;
import dev.capability.workflow.WorkPlan;
import dev.capability.workflow.WorkflowCodes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads and writes the JSON form of a {@link WorkPlan} ({@code docs/schemas/work-plan.schema.json}). */
public final class PlanJson {
  private PlanJson() {}

  /** The members a plan may have. */
  public static final Set<String> MEMBERS = Set.of("version", "id", "title", "phases");
  /** The members a phase may have. */
  public static final Set<String> PHASE_MEMBERS = Set.of(
      "id", "goal", "writeScopes", "deliverables", "verificationKind", "acceptance", "selectiveTests", "fullSuite", "dependsOn");
  /** The most phases a plan may have. */
  public static final int MAX_PHASES = 100;
  static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final int MAX_COMMANDS = 64;
  static final JsonDocuments DOCUMENT = new JsonDocuments(WorkflowCodes.WORK_PLAN_INVALID, "work plan");

  /** The plan in {@code json}. @throws dev.capability.workflow.WorkflowException {@code WORK_PLAN_INVALID} */
  public static WorkPlan read(String json) {
    return read(DOCUMENT.parse(json));
  }

  static WorkPlan read(JsonNode root) {
    DOCUMENT.object(root, "", MEMBERS, Set.of("version", "id", "phases"));
    DOCUMENT.version(root);
    String id = id(root.get("id"), "/id");
    String title = root.has("title") ? DOCUMENT.text(root.get("title"), "/title", ContractJson.MAX_TEXT, true) : "";
    JsonNode phasesNode = root.get("phases");
    if (!phasesNode.isArray() || phasesNode.isEmpty()) {
      throw DOCUMENT.invalid("/phases", "expected an array of at least one phase");
    }
    if (phasesNode.size() > MAX_PHASES) {
      throw DOCUMENT.invalid("/phases", "more than " + MAX_PHASES + " phases");
    }
    List<Phase> phases = new ArrayList<>();
    Set<String> earlier = new HashSet<>();
    for (int i = 0; i < phasesNode.size(); i++) {
      Phase phase = phase(phasesNode.get(i), "/phases/" + i, earlier);
      earlier.add(phase.id());
      phases.add(phase);
    }
    return new WorkPlan(id, title, phases);
  }

  private static Phase phase(JsonNode node, String at, Set<String> earlier) {
    DOCUMENT.object(node, at, PHASE_MEMBERS, Set.of("id", "goal", "writeScopes", "acceptance"));
    String id = id(node.get("id"), at + "/id");
    if (earlier.contains(id)) {
      throw DOCUMENT.invalid(at + "/id", "another phase is called \"" + id + "\" already");
    }
    String goal = DOCUMENT.text(node.get("goal"), at + "/goal", ContractJson.MAX_TEXT, false);
    List<String> writeScopes = DOCUMENT.texts(node.get("writeScopes"), at + "/writeScopes", false, ContractJson.MAX_LIST, ContractJson.MAX_TEXT);
    ContractJson.requireWriteScopes(DOCUMENT, writeScopes, at + "/writeScopes");
    List<String> deliverables = node.has("deliverables")
        ? DOCUMENT.texts(node.get("deliverables"), at + "/deliverables", true, ContractJson.MAX_LIST, ContractJson.MAX_TEXT)
        : List.of();
    VerificationKind kind = VerificationKind.CODE;
    if (node.has("verificationKind")) {
      String name = DOCUMENT.text(node.get("verificationKind"), at + "/verificationKind", 16, false);
      kind = switch (name) {
        case "code" -> VerificationKind.CODE;
        case "non-code" -> VerificationKind.NON_CODE;
        default -> throw DOCUMENT.invalid(at + "/verificationKind", "\"" + name + "\" is not one of [code, non-code]");
      };
    }
    List<String> acceptance = DOCUMENT.texts(node.get("acceptance"), at + "/acceptance", false, MAX_COMMANDS, ContractJson.MAX_COMMAND);
    List<String> selective = node.has("selectiveTests")
        ? DOCUMENT.texts(node.get("selectiveTests"), at + "/selectiveTests", true, MAX_COMMANDS, ContractJson.MAX_COMMAND)
        : List.of();
    Optional<String> fullSuite = node.has("fullSuite")
        ? Optional.of(DOCUMENT.text(node.get("fullSuite"), at + "/fullSuite", ContractJson.MAX_COMMAND, false))
        : Optional.empty();
    List<String> dependsOn = node.has("dependsOn")
        ? DOCUMENT.texts(node.get("dependsOn"), at + "/dependsOn", true, MAX_PHASES, 64)
        : List.of();
    for (int i = 0; i < dependsOn.size(); i++) {
      if (!earlier.contains(dependsOn.get(i))) {
        throw DOCUMENT.invalid(at + "/dependsOn/" + i, "\"" + dependsOn.get(i) + "\" is not an earlier phase of this plan");
      }
    }
    return new Phase(id, goal, writeScopes, deliverables, kind, acceptance, selective, fullSuite, dependsOn);
  }

  private static String id(JsonNode node, String pointer) {
    String id = DOCUMENT.text(node, pointer, 64, false);
    if (!ID.matcher(id).matches()) {
      throw DOCUMENT.invalid(pointer, "\"" + id + "\" is not an id: a letter or digit, then letters, digits, '.', '_' or '-', at most 64");
    }
    return id;
  }

  /** The normal JSON form of {@code plan}, every member written, as stored. */
  public static Map<String, Object> toMap(WorkPlan plan) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("version", 1);
    map.put("id", plan.id());
    map.put("title", plan.title());
    List<Object> phases = new ArrayList<>();
    for (Phase phase : plan.phases()) {
      phases.add(toMap(phase));
    }
    map.put("phases", phases);
    return map;
  }

  static Map<String, Object> toMap(Phase phase) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("id", phase.id());
    map.put("goal", phase.goal());
    map.put("writeScopes", phase.writeScopes());
    map.put("deliverables", phase.deliverables());
    map.put("verificationKind", phase.verificationKind().jsonName());
    map.put("acceptance", phase.acceptance());
    map.put("selectiveTests", phase.selectiveTests());
    phase.fullSuite().ifPresent(command -> map.put("fullSuite", command));
    map.put("dependsOn", phase.dependsOn());
    return map;
  }

  /** {@code sha256:<hex>} of the plan's canonical JSON. */
  public static String hash(WorkPlan plan) {
    return "sha256:" + CanonicalJson.sha256(toMap(plan));
  }

  static Map<String, Object> toMap(PlanWarning warning) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("code", warning.code());
    map.put("pointer", warning.pointer());
    map.put("message", warning.message());
    return map;
  }

  static PlanWarning warning(Map<?, ?> map) {
    return new PlanWarning((String) map.get("code"), (String) map.get("pointer"), (String) map.get("message"));
  }
}
