package dev.capability.kernel.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of an {@link Attestation}, with the field names documented in
 * {@code docs/attestation.md}, as plain Java maps and lists (in document order) that any JSON
 * writer, or {@link dev.capability.kernel.api.json.CanonicalJson}, can serialize.
 */
public final class AttestationJson {
  private AttestationJson() {}

  public static Map<String, Object> toMap(Attestation a) {
    Map<String, Object> m = new LinkedHashMap<>();
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
      executable.put("pinning", a.executable().pinning());
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
    m.put("network", a.network());
    m.put("projectWrites", a.projectWrites());
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
    return m;
  }

  private static List<String> sorted(List<String> names) {
    return names.stream().sorted().toList();
  }

  private static Map<String, Object> stream(Attestation.Stream s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("sha256", s.sha256());
    m.put("bytes", s.bytes());
    m.put("truncated", s.truncated());
    return m;
  }
}
