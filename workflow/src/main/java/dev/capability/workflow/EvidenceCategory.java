package dev.capability.workflow;

/** The kinds of command a project accepts as deterministic evidence; a contract names its own per kind. */
public enum EvidenceCategory {
  BUILD("build"),
  TEST("test"),
  LINT("lint"),
  TYPE_CHECK("typeCheck"),
  SYNTAX("syntax");

  private final String jsonName;

  EvidenceCategory(String jsonName) {
    this.jsonName = jsonName;
  }

  /** The member name in a contract's {@code evidence} object. */
  public String jsonName() {
    return jsonName;
  }
}
