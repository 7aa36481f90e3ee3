package dev.capability.capability.runtime;

import java.util.Arrays;
import java.util.Optional;

/** The optional lifecycle hooks a manifest can declare under {@code hooks}. */
public enum Hook {
  PLAN("plan"),
  VERIFY("verify"),
  ROLLBACK("rollback");

  private final String id;

  Hook(String id) {
    this.id = id;
  }

  /** The name used in manifests, for example {@code rollback}. */
  public String id() {
    return id;
  }

  /** The hook named {@code id}, if there is one. */
  public static Optional<Hook> fromId(String id) {
    return Arrays.stream(values()).filter(hook -> hook.id.equals(id)).findFirst();
  }
}
