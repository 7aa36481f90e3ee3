package dev.capability.capability.runtime.internal.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Accepts only self-contained JSON Schemas (draft 2020-12): every reference stays inside the
 * document, so compiling or validating never fetches anything. The schema's shape is bounded
 * ({@link SchemaShape}), patterns are matched in linear time ({@link Re2Patterns}) and every
 * validation runs within a counted {@link ValidationBudget}, so no schema can hang or crash the host.
 */
public final class SchemaGuard {
  static final String DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
  private static final Set<String> REFERENCES = Set.of("$ref", "$dynamicRef", "$recursiveRef");
  private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
  private static final SchemaValidatorsConfig CONFIG =
      SchemaValidatorsConfig.builder().regularExpressionFactory(Re2Patterns.INSTANCE).formatAssertionsEnabled(false).build();

  private SchemaGuard() {}

  /** A compiled schema and what validating one value against it may cost. */
  public static final class Compiled {
    private final JsonSchema schema;
    private final long evaluationsPerValue;

    private Compiled(JsonSchema schema, long evaluationsPerValue) {
      this.schema = schema;
      this.evaluationsPerValue = evaluationsPerValue;
    }

    /**
     * Validates {@code value} within the host's budget; returns why it does not match (at most five
     * messages), or why validating it would cost too much, or nothing when it matches.
     */
    public Optional<String> problem(JsonNode value) {
      if (hasExtremeNumber(value)) {
        return Optional.of("a number is beyond 10^±" + SchemaShape.MAX_EXPONENT + " (no double holds it)");
      }
      Set<ValidationMessage> errors;
      try {
        errors = ValidationBudget.within(evaluationsPerValue * nodes(value), () -> schema.validate(value));
      } catch (ValidationBudget.ExceededException e) {
        return Optional.of(e.getMessage());
      }
      if (errors.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(errors.stream().map(ValidationMessage::getMessage).sorted().limit(5).collect(Collectors.joining("; ")));
    }

    private static boolean hasExtremeNumber(JsonNode value) {
      if (SchemaShape.extreme(value)) {
        return true;
      }
      for (JsonNode child : value) {
        if (hasExtremeNumber(child)) {
          return true;
        }
      }
      return false;
    }

    private static long nodes(JsonNode value) {
      long count = 1;
      for (JsonNode child : value) {
        count += nodes(child);
      }
      return count;
    }
  }

  /** Refuses a schema that is not self-contained, too costly or does not compile; returns it compiled. */
  public static Compiled compile(JsonNode schema, String where) {
    if (!schema.isObject() && !schema.isBoolean()) {
      throw refused(where, "must be a JSON Schema object or boolean");
    }
    checkSelfContained(schema, where);
    long evaluations = SchemaShape.check(schema, where);
    try {
      JsonSchema compiled = FACTORY.getSchema(schema, CONFIG);
      compiled.initializeValidators();
      return new Compiled(compiled, evaluations);
    } catch (RuntimeException e) {
      throw new PackageRefusedException(
          CapabilityCodes.MANIFEST_SCHEMA_INVALID, where + " does not compile: " + e.getMessage(), e);
    }
  }

  private static void checkSelfContained(JsonNode node, String pointer) {
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        checkSelfContained(node.get(i), pointer + "/" + i);
      }
      return;
    }
    if (!node.isObject()) {
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String key = field.getKey();
      JsonNode value = field.getValue();
      String here = pointer + "/" + key.replace("~", "~0").replace("/", "~1");
      if (REFERENCES.contains(key) && (!value.isTextual() || !value.asText().startsWith("#"))) {
        throw refused(here, "must be a reference inside the document (starting with '#')");
      }
      if (key.equals("$schema") && (!value.isTextual() || !value.asText().equals(DRAFT_2020_12))) {
        throw refused(here, "must be " + DRAFT_2020_12);
      }
      if (key.equals("$id")) {
        throw refused(here, "is not supported: schemas are self-contained");
      }
      checkSelfContained(value, here);
    }
  }

  private static PackageRefusedException refused(String where, String why) {
    return new PackageRefusedException(CapabilityCodes.MANIFEST_SCHEMA_INVALID, where + " " + why);
  }
}
