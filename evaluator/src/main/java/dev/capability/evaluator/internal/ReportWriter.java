package dev.capability.evaluator.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.capability.evaluator.CandidateResult;
import dev.capability.evaluator.CellResult;
import dev.capability.evaluator.EvaluationCommand;
import dev.capability.evaluator.EvaluationConfig;
import dev.capability.evaluator.EvaluationReport;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Writes a report as {@code report.json} and {@code report.html}; see {@code docs/evaluator-design.md} for the members. */
public final class ReportWriter {
  private ReportWriter() {}

  /** The version of the JSON report's format. */
  static final int VERSION = 1;

  private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  static void write(EvaluationReport report, OutputDirectory output) {
    output.write(OutputDirectory.REPORT_JSON, (text(json(report)) + "\n").getBytes(StandardCharsets.UTF_8));
    output.write(OutputDirectory.REPORT_HTML, HtmlReport.render(report).getBytes(StandardCharsets.UTF_8));
  }

  /** The report's JSON form, as plain maps, lists, strings, numbers and booleans. */
  public static Map<String, @Nullable Object> json(EvaluationReport report) {
    EvaluationConfig config = report.config();
    Map<String, @Nullable Object> json = new LinkedHashMap<>();
    json.put("version", VERSION);
    json.put("evaluationId", report.evaluationId());
    json.put("config", config.source().toString());
    json.put("configSha256", config.sha256());
    json.put("repository", config.repository().toString());
    json.put("policy", Map.of("path", config.policy().toString(), "sha256", report.policySha256()));
    json.put("outputDirectory", config.outputDirectory().toString());
    json.put("startedAt", report.startedAt().toString());
    json.put("finishedAt", report.finishedAt().toString());
    json.put("interrupted", report.interrupted());
    json.put("allPassed", report.allPassed());
    json.put("baseline", config.baseline());
    json.put("prunedWorktrees", report.prunedWorktrees());
    List<Map<String, @Nullable Object>> commands = new ArrayList<>();
    for (EvaluationCommand command : config.commands()) {
      Map<String, @Nullable Object> c = new LinkedHashMap<>();
      c.put("name", command.name());
      c.put("argv", command.argv());
      c.put("timeoutSeconds", command.timeout() == null ? null : command.timeout().toSeconds());
      c.put("maxOutputBytes", command.maxOutputBytes());
      commands.add(c);
    }
    json.put("commands", commands);
    List<Map<String, @Nullable Object>> candidates = new ArrayList<>();
    for (CandidateResult candidate : report.candidates()) {
      Map<String, @Nullable Object> c = new LinkedHashMap<>();
      c.put("name", candidate.candidate().name());
      c.put("ref", candidate.candidate().ref());
      c.put("commit", candidate.commit());
      c.put("passed", candidate.passed());
      c.put("error", candidate.error());
      List<Map<String, @Nullable Object>> cells = new ArrayList<>();
      candidate.cells().forEach(cell -> cells.add(cell(cell)));
      c.put("results", cells);
      candidates.add(c);
    }
    json.put("candidates", candidates);
    Set<CellResult> regressed = regressions(report);
    List<Map<String, @Nullable Object>> regressions = new ArrayList<>();
    for (CandidateResult candidate : report.candidates()) {
      for (CellResult cell : candidate.cells()) {
        if (regressed.contains(cell)) {
          regressions.add(Map.of("candidate", candidate.candidate().name(), "command", cell.command()));
        }
      }
    }
    json.put("regressions", regressions);
    return json;
  }

  /** The cells {@link EvaluationReport#regressions()} names, by identity: two cells of different candidates may be equal. */
  static Set<CellResult> regressions(EvaluationReport report) {
    Set<CellResult> cells = Collections.newSetFromMap(new IdentityHashMap<>());
    cells.addAll(report.regressions());
    return cells;
  }

  private static Map<String, @Nullable Object> cell(CellResult cell) {
    Map<String, @Nullable Object> json = new LinkedHashMap<>();
    json.put("command", cell.command());
    json.put("argv", cell.argv());
    json.put("outcome", cell.outcome().name());
    json.put("status", cell.status() == null ? null : cell.status().name());
    json.put("exitCode", cell.exitCode());
    json.put("durationMillis", cell.duration().toMillis());
    json.put("stdoutSha256", cell.stdoutSha256());
    json.put("stderrSha256", cell.stderrSha256());
    json.put("stdoutLog", cell.stdoutLog());
    json.put("stderrLog", cell.stderrLog());
    json.put("failureExcerpt", cell.failureExcerpt());
    json.put("message", cell.message());
    json.put("attestation", cell.attestation());
    return json;
  }

  private static String text(Map<String, @Nullable Object> json) {
    try {
      return MAPPER.writeValueAsString(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a report of plain values always serializes", e);
    }
  }
}
