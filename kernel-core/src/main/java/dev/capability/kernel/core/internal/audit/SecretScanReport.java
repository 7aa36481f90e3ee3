package dev.capability.kernel.core.internal.audit;

import java.util.List;
import java.util.Objects;

/**
 * What a secret scan found, and what it could not look at.
 *
 * @param findings every finding, in scan order: files in path order, then stdout, then stderr
 * @param gaps content not (fully) scanned
 */
public record SecretScanReport(List<SecretFinding> findings, List<ScanGap> gaps) {

  public SecretScanReport {
    findings = List.copyOf(Objects.requireNonNull(findings, "findings"));
    gaps = List.copyOf(Objects.requireNonNull(gaps, "gaps"));
  }
}
