package dev.capability.workflow.internal;

import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.workflow.FailureRecord;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Normalized failure records: a bounded excerpt of what a failed command printed, with every line
 * the kernel's secret scan flagged replaced, and a fingerprint that stays the same when the same
 * failure happens again (numbers, hex runs and temporary paths masked).
 */
final class Failures {
  private Failures() {}

  static final String REDACTED = "[line withheld: the secret scan flagged it]";
  private static final Pattern TEMPORARY_PATH = Pattern.compile("/tmp/[^\\s:'\"]*");
  private static final Pattern HEX = Pattern.compile("\\b[0-9a-fA-F]{8,}\\b");
  private static final Pattern NUMBER = Pattern.compile("\\d+");
  private static final Pattern BLANKS = Pattern.compile("[ \\t]+");

  static FailureRecord of(ExecutionResult result) {
    boolean useStderr = !result.stderr().text().isBlank();
    String source = useStderr ? "stderr" : "stdout";
    String text = useStderr ? result.stderr().text() : result.stdout().text();
    Set<Integer> flagged = new HashSet<>();
    for (Attestation.SecretFinding finding : result.attestation().secrets().findings()) {
      if (finding.source().equals(source)) {
        flagged.add(finding.line());
      }
    }
    String[] lines = text.split("\n", -1);
    StringBuilder redacted = new StringBuilder();
    for (int i = 0; i < lines.length; i++) {
      if (i > 0) {
        redacted.append('\n');
      }
      redacted.append(flagged.contains(i + 1) ? REDACTED : lines[i]);
    }
    String printed = redacted.toString().strip();
    // A command that never ran printed nothing; the kernel's reason is the failure to show.
    if (printed.isEmpty() && result.failureMessage() != null) {
      printed = result.failureMessage();
    }
    String excerpt = tail(printed, FailureRecord.MAX_EXCERPT_CHARS);
    Optional<Integer> exitCode = result.exitCode().isPresent() ? Optional.of(result.exitCode().getAsInt()) : Optional.empty();
    Map<String, Object> identity = new LinkedHashMap<>();
    identity.put("argv", result.argv());
    identity.put("status", result.status().name());
    identity.put("exitCode", exitCode.map(Object.class::cast).orElse("none"));
    identity.put("decision", result.decision().allowed() ? "ALLOWED" : result.decision().code());
    identity.put("excerpt", normalize(excerpt));
    String fingerprint = "sha256:" + CanonicalJson.sha256(identity);
    return new FailureRecord(result.argv(), result.status().name(), exitCode, excerpt, fingerprint);
  }

  static String normalize(String excerpt) {
    String masked = TEMPORARY_PATH.matcher(excerpt).replaceAll("/tmp/_");
    masked = HEX.matcher(masked).replaceAll("H");
    masked = NUMBER.matcher(masked).replaceAll("N");
    return BLANKS.matcher(masked).replaceAll(" ");
  }

  private static String tail(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    int start = text.length() - max;
    if (Character.isLowSurrogate(text.charAt(start))) {
      start++;
    }
    return text.substring(start);
  }
}
