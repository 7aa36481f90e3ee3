package dev.capability.evaluator.internal;

import dev.capability.evaluator.CandidateResult;
import dev.capability.evaluator.CellOutcome;
import dev.capability.evaluator.CellResult;
import dev.capability.evaluator.EvaluationCommand;
import dev.capability.evaluator.EvaluationReport;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The report as one self-contained HTML page: a table with the candidates as columns and the
 * commands as rows, each cell coloured by its outcome (a class and an inline style, so it shows
 * without the style sheet too), with links to the cell's full logs beside the report. No script:
 * the page's content security policy allows none, and every text from the configuration, Git or
 * a command's output is escaped.
 */
final class HtmlReport {
  private HtmlReport() {}

  /** The background of each outcome's cells. */
  static final Map<CellOutcome, String> COLOURS = Map.of(
      CellOutcome.PASSED, "#b7e4b0",
      CellOutcome.FAILED, "#f2a6a6",
      CellOutcome.TIMED_OUT, "#f2a6a6",
      CellOutcome.DENIED, "#f5d27a",
      CellOutcome.NOT_RUN, "#d9d9d9");

  static String render(EvaluationReport report) {
    StringBuilder html = new StringBuilder(8192);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n")
        .append("<title>Evaluation ").append(escape(report.evaluationId())).append("</title>\n<style>\n")
        .append("body { font-family: sans-serif; margin: 1.5em; }\n")
        .append("table.evaluation { border-collapse: collapse; }\n")
        .append("table.evaluation th, table.evaluation td { border: 1px solid #777; padding: 0.4em 0.7em; vertical-align: top; text-align: left; }\n")
        .append("pre { white-space: pre-wrap; max-width: 40em; max-height: 12em; overflow: auto; font-size: 0.85em; margin: 0.3em 0 0 0; }\n");
    COLOURS.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
        html.append("td.").append(cssClass(e.getKey())).append(" { background: ").append(e.getValue()).append("; }\n"));
    html.append("</style>\n</head>\n<body>\n<h1>Evaluation ").append(escape(report.evaluationId())).append("</h1>\n")
        .append("<p class=\"summary\">").append(report.allPassed() ? "Every command passed on every candidate." : "Some commands did not pass.")
        .append(report.interrupted() ? " The evaluation was interrupted; the grey cells did not run." : "").append("</p>\n")
        .append("<p>Repository <code>").append(escape(report.config().repository().toString())).append("</code>, policy <code>")
        .append(escape(report.policySha256())).append("</code>, started ").append(escape(report.startedAt().toString()))
        .append(", finished ").append(escape(report.finishedAt().toString())).append(".</p>\n")
        .append("<table class=\"evaluation\">\n<thead>\n<tr><th>Command</th>");
    for (CandidateResult candidate : report.candidates()) {
      boolean baseline = candidate.candidate().name().equals(report.config().baseline());
      html.append("<th class=\"candidate\">").append(escape(candidate.candidate().name()))
          .append(baseline ? " (baseline)" : "")
          .append("<br><small>").append(escape(candidate.candidate().ref())).append(" at <code>")
          .append(escape(candidate.commit().substring(0, Math.min(12, candidate.commit().length())))).append("</code></small>");
      if (candidate.error() != null) {
        html.append("<br><small class=\"error\">").append(escape(candidate.error())).append("</small>");
      }
      html.append("</th>");
    }
    html.append("</tr>\n</thead>\n<tbody>\n");
    Set<CellResult> regressions = ReportWriter.regressions(report);
    for (EvaluationCommand command : report.config().commands()) {
      html.append("<tr><th class=\"command\">").append(escape(command.name())).append("<br><small><code>")
          .append(escape(String.join(" ", command.argv()))).append("</code></small></th>");
      for (CandidateResult candidate : report.candidates()) {
        CellResult cell = candidate.cell(command.name());
        cell(html, cell, regressions.contains(cell));
      }
      html.append("</tr>\n");
    }
    html.append("</tbody>\n</table>\n</body>\n</html>\n");
    return html.toString();
  }

  private static void cell(StringBuilder html, CellResult cell, boolean regression) {
    CellOutcome outcome = cell.outcome();
    html.append("<td class=\"").append(cssClass(outcome)).append("\" style=\"background: ").append(COLOURS.get(outcome)).append(";\">")
        .append("<strong>").append(outcome.name()).append("</strong>");
    if (cell.exitCode() != null) {
      html.append(" exit ").append(cell.exitCode());
    }
    if (outcome != CellOutcome.NOT_RUN) {
      html.append(" in ").append(cell.duration().toMillis()).append(" ms<br>")
          .append("<a href=\"").append(escape(cell.stdoutLog())).append("\">stdout</a> ")
          .append("<a href=\"").append(escape(cell.stderrLog())).append("\">stderr</a>");
    }
    if (regression) {
      html.append("<br><em class=\"regression\">regression: passed on the baseline</em>");
    }
    if (!cell.failureExcerpt().isEmpty()) {
      html.append("<pre>").append(escape(cell.failureExcerpt())).append("</pre>");
    } else if (outcome == CellOutcome.NOT_RUN) {
      html.append("<br><small>").append(escape(cell.message())).append("</small>");
    }
    html.append("</td>");
  }

  private static String cssClass(CellOutcome outcome) {
    return outcome.name().toLowerCase(Locale.ROOT);
  }

  /** The text with every character that could open markup or end an attribute replaced by its reference. */
  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
