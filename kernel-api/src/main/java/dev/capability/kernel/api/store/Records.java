package dev.capability.kernel.api.store;

/** The checks the evidence records share. */
final class Records {
  private Records() {}

  static void requireText(String value, String name) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(name + " must be a non-empty string");
    }
  }
}
