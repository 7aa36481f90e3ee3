package dev.capability.workflow.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.capability.workflow.Assumption;
import dev.capability.workflow.AssumptionCodes;
import dev.capability.workflow.WorkflowException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads and writes an assumption document as strictly as a work plan. The confidence is read as
 * written: {@code NaN} and {@code Infinity} are read as numbers so that they are refused for what
 * they are ({@code ASSUMPTION_CONFIDENCE_INVALID}), as is a string; nothing is clamped.
 */
public final class AssumptionJson {
  /** At most this many links of each kind, and rejected alternatives. */
  static final int MAX_ITEMS = 1000;
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
      .build();
  private static final JsonDocuments DOC = new JsonDocuments(AssumptionCodes.ASSUMPTION_INVALID, "assumption");
  static final Set<String> MEMBERS = Set.of("version", "id", "statement", "rejectedAlternatives", "confidence", "links");
  private static final Set<String> REQUIRED = Set.of("version", "id", "statement", "confidence");
  static final Set<String> LINKS = Set.of("files", "phases", "assumptions");

  private AssumptionJson() {}

  /** What an agent wrote, before it is placed in a work plan. */
  public record Draft(String id, String statement, List<String> rejectedAlternatives, double confidence, List<String> files,
      List<String> phases, List<String> dependents) {}

  /**
   * Reads an assumption document.
   *
   * @throws WorkflowException {@code ASSUMPTION_INVALID} with the JSON pointer, {@code ASSUMPTION_CONFIDENCE_INVALID},
   *     {@code ASSUMPTION_LINK_OUTSIDE_REPOSITORY}
   */
  public static Draft read(String json) {
    if (json.length() > JsonDocuments.MAX_CHARS) {
      throw new WorkflowException(AssumptionCodes.ASSUMPTION_INVALID, "the assumption is longer than " + JsonDocuments.MAX_CHARS + " characters");
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String position = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      throw new WorkflowException(AssumptionCodes.ASSUMPTION_INVALID, "the assumption is not valid JSON" + position + ": " + e.getOriginalMessage(), e);
    }
    if (root == null || root.isMissingNode()) {
      throw new WorkflowException(AssumptionCodes.ASSUMPTION_INVALID, "the assumption is empty");
    }
    DOC.object(root, "", MEMBERS, REQUIRED);
    DOC.version(root);
    String id = DOC.text(root.get("id"), "/id", 64, false);
    if (!ID.matcher(id).matches()) {
      throw DOC.invalid("/id", "\"" + id + "\" is not an id: a letter or digit, then letters, digits, '.', '_', '-'; at most 64");
    }
    String statement = DOC.text(root.get("statement"), "/statement", 4096, false);
    if (statement.isBlank()) {
      throw DOC.invalid("/statement", "expected a statement that is not blank");
    }
    List<String> alternatives = root.has("rejectedAlternatives")
        ? DOC.texts(root.get("rejectedAlternatives"), "/rejectedAlternatives", true, MAX_ITEMS, 4096) : List.of();
    double confidence = confidence(root.get("confidence"));
    List<String> files = List.of();
    List<String> phases = List.of();
    List<String> dependents = List.of();
    if (root.has("links")) {
      JsonNode links = DOC.object(root.get("links"), "/links", LINKS, Set.of());
      files = links.has("files") ? DOC.texts(links.get("files"), "/links/files", true, MAX_ITEMS, 4096) : List.of();
      phases = links.has("phases") ? DOC.texts(links.get("phases"), "/links/phases", true, MAX_ITEMS, 64) : List.of();
      dependents = links.has("assumptions") ? DOC.texts(links.get("assumptions"), "/links/assumptions", true, MAX_ITEMS, 64) : List.of();
    }
    for (int i = 0; i < files.size(); i++) {
      if (!RadiusCalculator.isRepositoryPath(files.get(i))) {
        throw new WorkflowException(AssumptionCodes.ASSUMPTION_LINK_OUTSIDE_REPOSITORY, "the assumption at /links/files/" + i + ": \""
            + files.get(i) + "\" is not inside the repository: a link is a repository-relative path or glob, without a leading '/' or '~',"
            + " and without '.', '..' or empty segments");
      }
      try {
        dev.capability.kernel.core.WritePaths.requireValidPattern(files.get(i));
      } catch (RuntimeException e) {
        throw DOC.invalid("/links/files/" + i, e.getMessage());
      }
    }
    return new Draft(id, statement, alternatives, confidence, files, phases, dependents);
  }

  private static double confidence(JsonNode node) {
    if (node == null || !node.isNumber()) {
      throw new WorkflowException(AssumptionCodes.ASSUMPTION_CONFIDENCE_INVALID, "the assumption at /confidence: expected a number from 0 to 1, got "
          + (node == null ? "nothing" : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " " + node));
    }
    double value = node.doubleValue();
    if (node.isBigDecimal() || node.isBigInteger()) {
      value = node.decimalValue().doubleValue();
    }
    if (Double.isNaN(value) || Double.isInfinite(value) || value < 0 || value > 1) {
      throw new WorkflowException(AssumptionCodes.ASSUMPTION_CONFIDENCE_INVALID, "the assumption at /confidence: " + node
          + " is not a number from 0 to 1; a confidence is refused, never clamped");
    }
    return value;
  }

  /** The stored JSON form of {@code a} (without the work plan and phase, which the record carries). */
  public static Map<String, Object> toMap(Assumption a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("version", 1);
    m.put("id", a.id());
    m.put("statement", a.statement());
    m.put("rejectedAlternatives", a.rejectedAlternatives());
    m.put("confidence", a.confidence());
    Map<String, Object> links = new LinkedHashMap<>();
    links.put("files", a.files());
    links.put("phases", a.phases());
    links.put("assumptions", a.dependents());
    m.put("links", links);
    return m;
  }

  /** The assumption stored as {@code map} for {@code workPlanId} and {@code phaseId}. */
  public static Assumption fromMap(String workPlanId, String phaseId, Map<String, Object> map) {
    Draft d = read(JsonDocuments.MAPPER.valueToTree(map).toString());
    return new Assumption(d.id(), workPlanId, phaseId, d.statement(), d.rejectedAlternatives(), d.confidence(), d.files(), d.phases(),
        d.dependents());
  }
}
