package dev.capability.workflow.internal;

import dev.capability.kernel.api.Attestation;
import dev.capability.workflow.CommandRun;
import dev.capability.workflow.PhaseCompletion;
import dev.capability.workflow.PhaseStatus;
import dev.capability.workflow.PhaseVerification;
import dev.capability.workflow.PlanWarning;
import dev.capability.workflow.WorkPlanRevision;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The JSON views of what the work plans return, one shape for every front end (the CLI's {@code
 * --json} and the MCP tools): every member written, an absent one as null. The stored forms are
 * {@link PlanJson}, {@link ContractJson} and {@link VerificationJson}.
 */
public final class ResultJson {
  private ResultJson() {}

  public static Map<String, @Nullable Object> revision(WorkPlanRevision revision, boolean withPlan) {
    Map<String, @Nullable Object> map = new LinkedHashMap<>();
    map.put("workPlanId", revision.plan().id());
    map.put("revision", revision.revision());
    map.put("revisionHash", revision.revisionHash());
    map.put("warnings", warnings(revision.warnings()));
    map.put("sequence", revision.sequence());
    if (withPlan) {
      map.put("plan", PlanJson.toMap(revision.plan()));
    }
    return map;
  }

  public static List<Map<String, @Nullable Object>> warnings(List<PlanWarning> warnings) {
    return warnings.stream().map(w -> {
      Map<String, @Nullable Object> m = new LinkedHashMap<>();
      m.put("code", w.code());
      m.put("pointer", w.pointer());
      m.put("message", w.message());
      return m;
    }).toList();
  }

  public static Map<String, @Nullable Object> verification(PhaseVerification v) {
    Map<String, @Nullable Object> map = new LinkedHashMap<>();
    map.put("workPlanId", v.workPlanId());
    map.put("planRevision", v.planRevision());
    map.put("phaseId", v.phaseId());
    map.put("passed", v.passed());
    map.put("failureCode", v.failureCode().orElse(null));
    map.put("message", v.message());
    map.put("runs", v.runs().stream().map(ResultJson::run).toList());
    map.put("ranFullSuite", v.ranFullSuite());
    map.put("changedPaths", v.changedPaths());
    map.put("violations", v.violations().stream().map(ResultJson::violation).toList());
    map.put("secrets", v.secrets().stream().map(s -> Map.of("rule", s.rule(), "source", s.source(), "line", s.line())).toList());
    map.put("critic", v.critic().map(c -> Map.of("approved", c.approved(), "blocking", c.blocking(), "run", run(c.run()))).orElse(null));
    map.put("treeHash", v.treeHash());
    map.put("sequence", v.sequence());
    return map;
  }

  private static Map<String, @Nullable Object> run(CommandRun run) {
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    m.put("stage", run.stage());
    m.put("command", run.command());
    m.put("status", run.status());
    m.put("exitCode", run.exitCode().orElse(null));
    m.put("passed", run.passed());
    m.put("executionSequence", run.executionSequence());
    m.put("failure", run.failure().map(f -> Map.of("excerpt", f.excerpt(), "fingerprint", f.fingerprint())).orElse(null));
    return m;
  }

  private static Map<String, @Nullable Object> violation(Attestation.Violation v) {
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    m.put("path", v.path());
    m.put("kind", v.kind());
    m.put("layer", v.layer());
    m.put("rule", v.rule());
    m.put("reason", v.reason());
    return m;
  }

  public static Map<String, @Nullable Object> completion(PhaseCompletion c) {
    Map<String, @Nullable Object> map = new LinkedHashMap<>();
    map.put("workPlanId", c.workPlanId());
    map.put("planRevision", c.planRevision());
    map.put("phaseId", c.phaseId());
    map.put("inputTreeHash", c.inputTreeHash());
    map.put("verificationSequence", c.verificationSequence());
    map.put("nextPhaseId", c.nextPhaseId().orElse(null));
    return map;
  }

  public static Map<String, @Nullable Object> status(PhaseStatus s) {
    Map<String, @Nullable Object> map = new LinkedHashMap<>();
    map.put("workPlanId", s.workPlanId());
    map.put("revision", s.revision());
    map.put("completed", s.completed());
    map.put("active", s.active().orElse(null));
    map.put("lastVerification", s.lastVerification().map(ResultJson::verification).orElse(null));
    return map;
  }
}
