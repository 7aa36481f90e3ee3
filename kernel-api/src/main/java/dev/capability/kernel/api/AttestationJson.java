package dev.capability.kernel.api;

import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.kernel.api.json.internal.JsonStrings;
import dev.capability.kernel.api.json.internal.StrictJsonParser;
import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The JSON form of an {@link Attestation}, with the field names documented in
 * {@code docs/attestation.md}: {@link #toMap} as plain Java maps and lists (in document order) that
 * any JSON writer, or {@link dev.capability.kernel.api.json.CanonicalJson}, can serialize, and
 * {@link #fromJson} to read that JSON back.
 */
public final class AttestationJson {
  /** The code of JSON that is not an attestation ({@link #fromJson}). */
  public static final String ATTESTATION_INVALID = "ATTESTATION_INVALID";

  /** The largest attestation JSON {@link #fromJson} reads, in characters. */
  public static final int MAX_JSON = 16 << 20;

  private static final int MAX_DEPTH = 16;

  private AttestationJson() {}

  /**
   * Reads an attestation from the JSON {@link #toMap} writes (with any member order, whitespace
   * and number spelling): {@code fromJson(CanonicalJson.serialize(toMap(a)))} equals {@code a} when
   * {@code a}'s environment names are sorted, as the kernel's are (the JSON form sorts them).
   * Members {@link #toMap} leaves out when empty ({@code backend.versions}, {@code
   * environment.requested}, {@code environment.accepted}, {@code egress} unless the network is
   * filtered, and {@code workspace} when none was shipped) may be absent.
   *
   * @throws CapabilityException {@link #ATTESTATION_INVALID} for text that is not strict JSON
   *     (no duplicate members, no trailing content, at most {@link #MAX_JSON} characters), or a
   *     member that is missing, unknown, of the wrong type or out of range, naming its JSON pointer
   */
  public static Attestation fromJson(String json) {
    Objects.requireNonNull(json, "json");
    if (json.length() > MAX_JSON) {
      throw new CapabilityException(ATTESTATION_INVALID, "the attestation has " + json.length() + " characters; the limit is " + MAX_JSON);
    }
    Object parsed;
    try {
      parsed = StrictJsonParser.parse(json, MAX_DEPTH);
    } catch (IllegalArgumentException e) {
      throw new CapabilityException(ATTESTATION_INVALID, "the attestation is " + e.getMessage(), e);
    }
    return JsonObject.of(parsed, "").attestation();
  }

  public static Map<String, @Nullable Object> toMap(Attestation a) {
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    m.put("kernelVersion", a.kernelVersion());
    m.put("status", a.status().name());
    m.put("argv", a.argv());
    m.put("commandSpecHash", a.commandSpecHash());
    Map<String, Object> decision = new LinkedHashMap<>();
    decision.put("allowed", a.decision().allowed());
    decision.put("code", a.decision().code());
    decision.put("layer", a.decision().layer());
    decision.put("rule", a.decision().rule());
    decision.put("argIndex", a.decision().argIndex());
    m.put("decision", decision);
    m.put("policyHash", a.policyHash());
    m.put("policySource", a.policySource());
    if (a.executable() == null) {
      m.put("executable", null);
    } else {
      Map<String, Object> executable = new LinkedHashMap<>();
      executable.put("path", a.executable().path());
      executable.put("sha256", a.executable().sha256());
      executable.put("pinning", pinningName(a.executable().pinning()));
      m.put("executable", executable);
    }
    if (a.backend() == null) {
      m.put("backend", null);
    } else {
      Map<String, Object> backend = new LinkedHashMap<>();
      backend.put("id", a.backend().id());
      backend.put("capabilities", a.backend().capabilities().stream()
          .map(c -> c.name()).sorted().toList());
      backend.put("choice", a.backend().choice().jsonName());
      backend.put("reason", a.backend().reason());
      // Present only when the backend names versions, so that every other attestation keeps its form.
      if (!a.backend().versions().isEmpty()) {
        backend.put("versions", a.backend().versions());
      }
      m.put("backend", backend);
    }
    Map<String, Object> environment = new LinkedHashMap<>();
    environment.put("inherited", sorted(a.environment().inherited()));
    environment.put("set", sorted(a.environment().set()));
    // Present only when the request gave variables, so that every other attestation keeps its form.
    if (!a.environment().requested().isEmpty()) {
      environment.put("requested", sorted(a.environment().requested()));
    }
    if (!a.environment().accepted().isEmpty()) {
      environment.put("accepted", sorted(a.environment().accepted()));
    }
    m.put("environment", environment);
    m.put("network", networkName(a.network()));
    // Present for filtered network, and whenever there are connections, so that every other attestation keeps its form.
    if (a.network() == NetworkMode.FILTERED || !a.egress().isEmpty()) {
      m.put("egress", a.egress().stream().map(AttestationJson::egress).toList());
    }
    m.put("projectWrites", projectWritesName(a.projectWrites()));
    Map<String, Object> boundaries = new LinkedHashMap<>();
    boundaries.put("operator", a.writeBoundaries().operator());
    boundaries.put("contract", a.writeBoundaries().contract());
    boundaries.put("phase", a.writeBoundaries().phase());
    boundaries.put("correction", a.writeBoundaries().correction());
    m.put("writeBoundaries", boundaries);
    m.put("createdScopeRoots", a.createdScopeRoots());
    m.put("toolConfiguration", a.toolConfiguration());
    m.put("neutralization", a.neutralization());
    m.put("filesProduced", a.filesProduced());
    m.put("changes", a.changes().stream().map(c -> {
      Map<String, Object> change = new LinkedHashMap<>();
      change.put("path", c.path());
      change.put("kind", c.kind());
      change.put("type", c.type());
      change.put("ignored", c.ignored());
      return change;
    }).toList());
    m.put("violations", a.violations().stream().map(v -> {
      Map<String, Object> violation = new LinkedHashMap<>();
      violation.put("path", v.path());
      violation.put("kind", v.kind());
      violation.put("layer", v.layer());
      violation.put("rule", v.rule());
      violation.put("reason", v.reason());
      return violation;
    }).toList());
    Map<String, Object> secrets = new LinkedHashMap<>();
    secrets.put("findings", a.secrets().findings().stream().map(f -> {
      Map<String, Object> finding = new LinkedHashMap<>();
      finding.put("rule", f.rule());
      finding.put("source", f.source());
      finding.put("line", f.line());
      return finding;
    }).toList());
    secrets.put("gaps", a.secrets().gaps().stream().map(g -> {
      Map<String, Object> gap = new LinkedHashMap<>();
      gap.put("source", g.source());
      gap.put("reason", g.reason());
      return gap;
    }).toList());
    m.put("secrets", secrets);
    m.put("inputTreeHash", a.inputTreeHash());
    m.put("stdout", stream(a.stdout()));
    m.put("stderr", stream(a.stderr()));
    m.put("startedAt", a.startedAt().toString());
    m.put("finishedAt", a.finishedAt().toString());
    m.put("timedOut", a.timedOut());
    m.put("outputLimitHit", a.outputLimitHit());
    m.put("exitCode", a.exitCode());
    // Present only when a workspace was shipped, so that every local attestation keeps its form.
    if (a.workspace() != null) {
      Map<String, Object> workspace = new LinkedHashMap<>();
      workspace.put("inputBytes", a.workspace().inputBytes());
      workspace.put("inputEntries", a.workspace().inputEntries());
      workspace.put("inputSha256", a.workspace().inputSha256());
      workspace.put("returnedBytes", a.workspace().returnedBytes());
      workspace.put("outcome", a.workspace().outcome());
      m.put("workspace", workspace);
    }
    return m;
  }

  private static Map<String, @Nullable Object> egress(EgressConnection c) {
    Map<String, @Nullable Object> connection = new LinkedHashMap<>();
    connection.put("protocol", c.protocol());
    connection.put("host", c.host());
    connection.put("port", c.port());
    connection.put("outcome", outcomeName(c.outcome()));
    connection.put("reason", c.reason());
    connection.put("address", c.address());
    connection.put("bytesSent", c.bytesSent());
    connection.put("bytesReceived", c.bytesReceived());
    return connection;
  }

  // The JSON spellings of the enum components; fromJson accepts exactly these.
  private static String outcomeName(EgressConnection.Outcome outcome) {
    return outcome.name().toLowerCase(Locale.ROOT);
  }

  private static String networkName(NetworkMode network) {
    return network.name().toLowerCase(Locale.ROOT);
  }

  private static String projectWritesName(ProjectWriteMode projectWrites) {
    return projectWrites.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static String pinningName(PinnedExecutable.Pinning pinning) {
    return pinning.name().toLowerCase(Locale.ROOT);
  }

  private static List<String> sorted(List<String> names) {
    return names.stream().sorted().toList();
  }

  /** An object of the attestation being read, and where it is; every accessor refuses what the documented form does not allow. */
  private record JsonObject(Map<String, @Nullable Object> members, String pointer) {
    static JsonObject of(Object value, String pointer) {
      if (!(value instanceof Map<?, ?> map)) {
        throw invalid(pointer, "must be an object");
      }
      @SuppressWarnings("unchecked")
      Map<String, @Nullable Object> members = (Map<String, @Nullable Object>) map;
      return new JsonObject(members, pointer);
    }

    /** Refuses members other than {@code required} and {@code optional}, and missing required ones. */
    JsonObject exactly(List<String> required, List<String> optional) {
      for (String name : required) {
        if (!members.containsKey(name)) {
          throw invalid(pointer, "has no member '" + name + "'");
        }
      }
      for (String name : members.keySet()) {
        if (!required.contains(name) && !optional.contains(name)) {
          throw invalid(pointer + "/" + escape(name), "is not a member of an attestation");
        }
      }
      return this;
    }

    JsonObject exactly(String... required) {
      return exactly(List.of(required), List.of());
    }

    private @Nullable Object get(String name) {
      return members.get(name);
    }

    private String at(String name) {
      return pointer + "/" + name;
    }

    JsonObject object(String name) {
      return of(get(name), at(name));
    }

    @Nullable JsonObject objectOrNull(String name) {
      return get(name) == null ? null : object(name);
    }

    String string(String name) {
      String value = stringOrNull(name);
      if (value == null) {
        throw invalid(at(name), "must be a string");
      }
      return value;
    }

    @Nullable String stringOrNull(String name) {
      Object value = get(name);
      if (value != null && !(value instanceof String)) {
        throw invalid(at(name), "must be a string or null");
      }
      return (String) value;
    }

    boolean bool(String name) {
      if (!(get(name) instanceof Boolean value)) {
        throw invalid(at(name), "must be true or false");
      }
      return value;
    }

    long integer(String name, long min, long max) {
      Long value = integerOrNull(name, min, max);
      if (value == null) {
        throw invalid(at(name), "must be an integer");
      }
      return value;
    }

    @Nullable Long integerOrNull(String name, long min, long max) {
      Object value = get(name);
      if (value == null) {
        return null;
      }
      if (!(value instanceof BigDecimal number)) {
        throw invalid(at(name), "must be an integer");
      }
      try {
        long exact = number.longValueExact();
        if (exact < min || exact > max) {
          throw invalid(at(name), "must be between " + min + " and " + max);
        }
        return exact;
      } catch (ArithmeticException e) {
        throw invalid(at(name), "must be an integer between " + min + " and " + max);
      }
    }

    Instant instant(String name) {
      String text = string(name);
      try {
        return Instant.parse(text);
      } catch (DateTimeParseException e) {
        throw invalid(at(name), "must be an ISO-8601 instant such as 2026-11-30T10:00:00Z");
      }
    }

    List<Object> list(String name) {
      if (!(get(name) instanceof List<?> list)) {
        throw invalid(at(name), "must be an array");
      }
      @SuppressWarnings("unchecked")
      List<Object> elements = (List<Object>) list;
      return elements;
    }

    List<String> strings(String name) {
      List<Object> list = list(name);
      for (int i = 0; i < list.size(); i++) {
        if (!(list.get(i) instanceof String)) {
          throw invalid(at(name) + "/" + i, "must be a string");
        }
      }
      return list.stream().map(String.class::cast).toList();
    }

    @Nullable List<String> stringsOrNull(String name) {
      return get(name) == null ? null : strings(name);
    }

    List<String> stringsOrEmpty(String name) {
      return members.containsKey(name) ? strings(name) : List.of();
    }

    List<JsonObject> objects(String name) {
      List<Object> list = list(name);
      List<JsonObject> objects = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        objects.add(of(list.get(i), at(name) + "/" + i));
      }
      return objects;
    }

    Map<String, String> stringMap(String name) {
      JsonObject map = object(name);
      Map<String, String> strings = new LinkedHashMap<>();
      map.members.keySet().forEach(key -> strings.put(key, map.string(key)));
      return strings;
    }

    <E extends Enum<E>> E constant(String name, Class<E> type, Function<E, String> spelling) {
      String text = string(name);
      for (E constant : type.getEnumConstants()) {
        if (spelling.apply(constant).equals(text)) {
          return constant;
        }
      }
      throw invalid(at(name), "must be one of " + Arrays.stream(type.getEnumConstants()).map(spelling).toList());
    }

    Attestation attestation() {
      exactly(List.of("kernelVersion", "status", "argv", "commandSpecHash", "decision", "policyHash", "policySource",
          "executable", "backend", "environment", "network", "projectWrites", "writeBoundaries", "createdScopeRoots",
          "toolConfiguration", "neutralization", "filesProduced", "changes", "violations", "secrets", "inputTreeHash",
          "stdout", "stderr", "startedAt", "finishedAt", "timedOut", "outputLimitHit", "exitCode"), List.of("egress", "workspace"));
      JsonObject decision = object("decision").exactly("allowed", "code", "layer", "rule", "argIndex");
      JsonObject executable = objectOrNull("executable");
      JsonObject backend = objectOrNull("backend");
      JsonObject environment = object("environment").exactly(List.of("inherited", "set"), List.of("requested", "accepted"));
      JsonObject boundaries = object("writeBoundaries").exactly("operator", "contract", "phase", "correction");
      JsonObject secrets = object("secrets").exactly("findings", "gaps");
      Long exitCode = integerOrNull("exitCode", Integer.MIN_VALUE, Integer.MAX_VALUE);
      Long argIndex = decision.integerOrNull("argIndex", 0, Integer.MAX_VALUE);
      return Attestation.builder()
          .kernelVersion(string("kernelVersion"))
          .status(constant("status", ExecutionStatus.class, Enum::name))
          .argv(strings("argv"))
          .commandSpecHash(string("commandSpecHash"))
          .decision(new Attestation.DecisionSummary(decision.bool("allowed"), decision.stringOrNull("code"),
              decision.stringOrNull("layer"), decision.stringOrNull("rule"), argIndex == null ? null : argIndex.intValue()))
          .policyHash(string("policyHash"))
          .policySource(string("policySource"))
          .executable(executable == null ? null : executable(executable.exactly("path", "sha256", "pinning")))
          .backend(backend == null ? null : backend(backend.exactly(List.of("id", "capabilities", "choice", "reason"), List.of("versions"))))
          .environment(new Attestation.Environment(environment.strings("inherited"), environment.strings("set"),
              environment.stringsOrEmpty("requested"), environment.stringsOrEmpty("accepted")))
          .network(constant("network", NetworkMode.class, AttestationJson::networkName))
          .egress(members.containsKey("egress") ? objects("egress").stream().map(JsonObject::egress).toList() : List.of())
          .projectWrites(constant("projectWrites", ProjectWriteMode.class, AttestationJson::projectWritesName))
          .writeBoundaries(new Attestation.WriteBoundaries(boundaries.stringsOrNull("operator"), boundaries.stringsOrNull("contract"),
              boundaries.stringsOrNull("phase"), boundaries.stringsOrNull("correction")))
          .createdScopeRoots(strings("createdScopeRoots"))
          .toolConfiguration(stringMap("toolConfiguration"))
          .neutralization(strings("neutralization"))
          .filesProduced(strings("filesProduced"))
          .changes(objects("changes").stream()
              .map(c -> c.exactly("path", "kind", "type", "ignored"))
              .map(c -> new Attestation.Change(c.string("path"), c.string("kind"), c.string("type"), c.bool("ignored")))
              .toList())
          .violations(objects("violations").stream()
              .map(v -> v.exactly("path", "kind", "layer", "rule", "reason"))
              .map(v -> new Attestation.Violation(v.string("path"), v.string("kind"), v.string("layer"), v.string("rule"), v.string("reason")))
              .toList())
          .secrets(new Attestation.SecretScan(
              secrets.objects("findings").stream()
                  .map(f -> f.exactly("rule", "source", "line"))
                  .map(f -> new Attestation.SecretFinding(f.string("rule"), f.string("source"), (int) f.integer("line", 0, Integer.MAX_VALUE)))
                  .toList(),
              secrets.objects("gaps").stream()
                  .map(g -> g.exactly("source", "reason"))
                  .map(g -> new Attestation.ScanGap(g.string("source"), g.string("reason")))
                  .toList()))
          .inputTreeHash(stringOrNull("inputTreeHash"))
          .stdout(object("stdout").stream())
          .stderr(object("stderr").stream())
          .startedAt(instant("startedAt"))
          .finishedAt(instant("finishedAt"))
          .timedOut(bool("timedOut"))
          .outputLimitHit(bool("outputLimitHit"))
          .exitCode(exitCode == null ? null : exitCode.intValue())
          .workspace(members.containsKey("workspace") ? object("workspace").workspace() : null)
          .build();
    }

    private static Attestation.Executable executable(JsonObject executable) {
      return new Attestation.Executable(executable.string("path"), executable.string("sha256"),
          executable.constant("pinning", PinnedExecutable.Pinning.class, AttestationJson::pinningName));
    }

    private static Attestation.Backend backend(JsonObject backend) {
      List<String> names = backend.strings("capabilities");
      Set<IsolationCapability> capabilities = EnumSet.noneOf(IsolationCapability.class);
      for (int i = 0; i < names.size(); i++) {
        String name = names.get(i);
        capabilities.add(Arrays.stream(IsolationCapability.values())
            .filter(c -> c.name().equals(name))
            .findFirst()
            .orElseThrow(() -> invalid(backend.at("capabilities"), "names an unknown isolation capability " + JsonStrings.quotedForMessage(name))));
      }
      return new Attestation.Backend(
          backend.string("id"),
          capabilities,
          backend.constant("choice", Attestation.Backend.Choice.class, Attestation.Backend.Choice::jsonName),
          backend.string("reason"),
          backend.members.containsKey("versions") ? backend.stringMap("versions") : Map.of());
    }

    private EgressConnection egress() {
      exactly("protocol", "host", "port", "outcome", "reason", "address", "bytesSent", "bytesReceived");
      EgressConnection.Outcome outcome = constant("outcome", EgressConnection.Outcome.class, AttestationJson::outcomeName);
      String reason = stringOrNull("reason");
      if ((outcome == EgressConnection.Outcome.ALLOWED) != (reason == null)) {
        throw invalid(at("reason"), "must be null exactly when the outcome is allowed");
      }
      return new EgressConnection(string("protocol"), string("host"), (int) integer("port", 0, 65535), outcome, reason,
          stringOrNull("address"), integer("bytesSent", 0, Long.MAX_VALUE), integer("bytesReceived", 0, Long.MAX_VALUE));
    }

    private Attestation.Workspace workspace() {
      exactly("inputBytes", "inputEntries", "inputSha256", "returnedBytes", "outcome");
      return new Attestation.Workspace(integer("inputBytes", 0, Long.MAX_VALUE), integer("inputEntries", 0, Long.MAX_VALUE),
          string("inputSha256"), integer("returnedBytes", 0, Long.MAX_VALUE), string("outcome"));
    }

    private Attestation.Stream stream() {
      exactly("sha256", "bytes", "truncated");
      return new Attestation.Stream(string("sha256"), integer("bytes", 0, Long.MAX_VALUE), bool("truncated"));
    }

    private static String escape(String name) {
      // RFC 6901: '~' becomes "~0" and '/' becomes "~1".
      return name.replace("~", "~0").replace("/", "~1");
    }

    private static CapabilityException invalid(String pointer, String problem) {
      return new CapabilityException(ATTESTATION_INVALID,
          "not an attestation: " + (pointer.isEmpty() ? "the attestation" : "JSON pointer " + JsonStrings.quotedForMessage(pointer)) + " " + problem);
    }
  }

  private static Map<String, Object> stream(Attestation.Stream s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("sha256", s.sha256());
    m.put("bytes", s.bytes());
    m.put("truncated", s.truncated());
    return m;
  }
}
