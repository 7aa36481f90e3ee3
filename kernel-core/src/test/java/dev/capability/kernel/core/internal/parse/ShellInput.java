package dev.capability.kernel.core.internal.parse;

import java.util.Objects;

/**
 * A generated command line. Exists so that jqwik's failure report (which prints samples with
 * {@code toString}) shows control and invisible characters escaped instead of raw.
 */
record ShellInput(String text) {
  ShellInput {
    Objects.requireNonNull(text, "text");
  }

  @Override
  public String toString() {
    return '"' + InputRendering.escape(text) + '"';
  }
}
