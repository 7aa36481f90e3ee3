package dev.capability.workflow.internal;

import dev.capability.kernel.api.Attestation;
import dev.capability.workflow.CommandRun;
import dev.capability.workflow.CriticVerdict;
import dev.capability.workflow.FailureRecord;
import dev.capability.workflow.PhaseVerification;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The JSON form of a {@link PhaseVerification} in a phase record, and back. */
final class VerificationJson {
  private VerificationJson() {}

  static Map<String, Object> toMap(PhaseVerification v) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("passed", v.passed());
    v.failureCode().ifPresent(code -> map.put("failureCode", code));
    map.put("message", v.message());
    map.put("runs", v.runs().stream().map(VerificationJson::toMap).toList());
    map.put("ranFullSuite", v.ranFullSuite());
    map.put("changedPaths", v.changedPaths());
    map.put("violations", v.violations().stream().map(x -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("path", x.path());
      m.put("kind", x.kind());
      m.put("layer", x.layer());
      m.put("rule", x.rule());
      m.put("reason", x.reason());
      return (Object) m;
    }).toList());
    map.put("secrets", v.secrets().stream().map(x -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("rule", x.rule());
      m.put("source", x.source());
      m.put("line", x.line());
      return (Object) m;
    }).toList());
    v.critic().ifPresent(c -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("approved", c.approved());
      m.put("blocking", c.blocking());
      m.put("run", toMap(c.run()));
      map.put("critic", m);
    });
    map.put("treeHash", v.treeHash());
    map.put("contentDigest", v.contentDigest());
    return map;
  }

  private static Map<String, Object> toMap(CommandRun run) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("stage", run.stage());
    map.put("command", run.command());
    map.put("argv", run.argv());
    map.put("status", run.status());
    run.exitCode().ifPresent(code -> map.put("exitCode", code));
    map.put("passed", run.passed());
    map.put("executionSequence", run.executionSequence());
    run.failure().ifPresent(f -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("argv", f.argv());
      m.put("status", f.status());
      f.exitCode().ifPresent(code -> m.put("exitCode", code));
      m.put("excerpt", f.excerpt());
      m.put("fingerprint", f.fingerprint());
      map.put("failure", m);
    });
    return map;
  }

  static PhaseVerification fromMap(String workPlanId, int planRevision, String phaseId, long sequence, Map<String, Object> map) {
    Optional<CriticVerdict> critic = Optional.empty();
    if (map.get("critic") instanceof Map<?, ?> c) {
      critic = Optional.of(new CriticVerdict((Boolean) c.get("approved"), (Boolean) c.get("blocking"), run((Map<?, ?>) c.get("run"))));
    }
    List<CommandRun> runs = new ArrayList<>();
    for (Object run : (List<?>) map.get("runs")) {
      runs.add(run((Map<?, ?>) run));
    }
    return new PhaseVerification(
        workPlanId, planRevision, phaseId, (Boolean) map.get("passed"), Optional.ofNullable((String) map.get("failureCode")),
        (String) map.get("message"), runs, (Boolean) map.get("ranFullSuite"), strings(map.get("changedPaths")),
        ((List<?>) map.get("violations")).stream().map(o -> {
          Map<?, ?> m = (Map<?, ?>) o;
          return new Attestation.Violation((String) m.get("path"), (String) m.get("kind"), (String) m.get("layer"), (String) m.get("rule"),
              (String) m.get("reason"));
        }).toList(),
        ((List<?>) map.get("secrets")).stream().map(o -> {
          Map<?, ?> m = (Map<?, ?>) o;
          return new Attestation.SecretFinding((String) m.get("rule"), (String) m.get("source"), ((Number) m.get("line")).intValue());
        }).toList(),
        critic, (String) map.get("treeHash"), (String) map.get("contentDigest"), sequence);
  }

  private static CommandRun run(Map<?, ?> map) {
    Optional<FailureRecord> failure = Optional.empty();
    if (map.get("failure") instanceof Map<?, ?> f) {
      failure = Optional.of(new FailureRecord(strings(f.get("argv")), (String) f.get("status"), integer(f.get("exitCode")),
          (String) f.get("excerpt"), (String) f.get("fingerprint")));
    }
    return new CommandRun((String) map.get("stage"), (String) map.get("command"), strings(map.get("argv")), (String) map.get("status"),
        integer(map.get("exitCode")), (Boolean) map.get("passed"), ((Number) map.get("executionSequence")).longValue(), failure);
  }

  private static Optional<Integer> integer(Object value) {
    return value == null ? Optional.empty() : Optional.of(((Number) value).intValue());
  }

  private static List<String> strings(Object value) {
    return ((List<?>) value).stream().map(String.class::cast).toList();
  }
}
