package dev.capability.workflow;

/** What kind of deliverable a phase produces, which decides the warnings its evidence gets. */
public enum VerificationKind {
  /** Code: acceptance commands are expected to test, lint, type-check, build or validate syntax. */
  CODE,
  /** Anything else (documents, configuration): no such check is expected. */
  NON_CODE;

  /** The name in JSON: {@code code} or {@code non-code}. */
  public String jsonName() {
    return this == CODE ? "code" : "non-code";
  }
}
