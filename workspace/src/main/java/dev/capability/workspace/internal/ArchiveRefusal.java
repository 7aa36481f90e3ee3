package dev.capability.workspace.internal;

import dev.capability.workspace.WorkspaceCodes;

/** A returned archive failed a check: a {@link WorkspaceCodes} code and a message naming the entry. */
final class ArchiveRefusal extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String code;

  ArchiveRefusal(String code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  String code() {
    return code;
  }
}
