package dev.capability.cli.internal;

import dev.capability.kernel.api.Attestation;
import dev.capability.workflow.CommandRun;
import dev.capability.workflow.PhaseCompletion;
import dev.capability.workflow.PhaseStatus;
import dev.capability.workflow.PhaseVerification;
import dev.capability.workflow.PlanWarning;
import dev.capability.workflow.WorkPlanRevision;
import dev.capability.workflow.WorkPlans;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON shapes of {@code contract}, {@code work-plan} and {@code phase} (docs/cli.md). */
final class WorkPlanText {
  private WorkPlanText() {}

  static Map<String, Object> revision(WorkPlanRevision revision, boolean withPlan) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("workPlanId", revision.plan().id());
    map.put("revision", revision.revision());
    map.put("revisionHash", revision.revisionHash());
    map.put("warnings", warnings(revision.warnings()));
    if (withPlan) {
      map.put("plan", WorkPlans.toJson(revision.plan()));
    }
    return map;
  }

  static List<Object> warnings(List<PlanWarning> warnings) {
    return warnings.stream().map(w -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("code", w.code());
      m.put("pointer", w.pointer());
      m.put("message", w.message());
      return (Object) m;
    }).toList();
  }

  static Map<String, Object> verification(PhaseVerification v) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("workPlanId", v.workPlanId());
    map.put("planRevision", v.planRevision());
    map.put("phaseId", v.phaseId());
    map.put("passed", v.passed());
    map.put("failureCode", v.failureCode().orElse(null));
    map.put("message", v.message());
    map.put("runs", v.runs().stream().map(WorkPlanText::run).toList());
    map.put("ranFullSuite", v.ranFullSuite());
    map.put("changedPaths", v.changedPaths());
    map.put("violations", v.violations().stream().map(WorkPlanText::violation).toList());
    map.put("secrets", v.secrets().stream().map(s -> (Object) Map.of("rule", s.rule(), "source", s.source(), "line", s.line())).toList());
    v.critic().ifPresent(c -> map.put("critic", Map.of("approved", c.approved(), "blocking", c.blocking(), "run", run(c.run()))));
    map.put("treeHash", v.treeHash());
    map.put("sequence", v.sequence());
    return map;
  }

  private static Object run(CommandRun run) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("stage", run.stage());
    m.put("command", run.command());
    m.put("status", run.status());
    m.put("exitCode", run.exitCode().orElse(null));
    m.put("passed", run.passed());
    m.put("executionSequence", run.executionSequence());
    run.failure().ifPresent(f -> m.put("failure", Map.of("excerpt", f.excerpt(), "fingerprint", f.fingerprint())));
    return m;
  }

  private static Object violation(Attestation.Violation v) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", v.path());
    m.put("kind", v.kind());
    m.put("layer", v.layer());
    m.put("rule", v.rule());
    m.put("reason", v.reason());
    return m;
  }

  static Map<String, Object> completion(PhaseCompletion c) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("workPlanId", c.workPlanId());
    map.put("planRevision", c.planRevision());
    map.put("phaseId", c.phaseId());
    map.put("inputTreeHash", c.inputTreeHash());
    map.put("verificationSequence", c.verificationSequence());
    map.put("nextPhaseId", c.nextPhaseId().orElse(null));
    return map;
  }

  static Map<String, Object> status(PhaseStatus s) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("workPlanId", s.workPlanId());
    map.put("revision", s.revision());
    map.put("completed", s.completed());
    map.put("active", s.active().orElse(null));
    map.put("lastVerification", s.lastVerification().map(WorkPlanText::verification).orElse(null));
    return map;
  }
}
