package dev.capability.capability.runtime.internal.manifest;

/**
 * The work one host-side validation may do, counted rather than timed so the bound holds whatever
 * the machine's speed: subschema evaluations (known before validating, from the schema's shape and
 * the value's size) and pattern matching (charged as each match runs).
 */
final class ValidationBudget {
  /** The most units one validation may spend: subschema evaluations plus pattern-by-text characters. */
  static final long MAX_UNITS = 200_000_000L;

  private static final ThreadLocal<long[]> REMAINING = new ThreadLocal<>();

  private ValidationBudget() {}

  /** Thrown when a validation would exceed its budget; the caller reports the value as refused. */
  static final class ExceededException extends RuntimeException {
    ExceededException() {
      super("the value is too costly to validate within the host's budget (" + MAX_UNITS + " units of subschema evaluations and pattern matching)", null, false, false);
    }
  }

  /** Runs {@code validation} with {@code units} of the budget already spent. */
  static <T> T within(long units, java.util.function.Supplier<T> validation) {
    if (units > MAX_UNITS) {
      throw new ExceededException();
    }
    long[] previous = REMAINING.get();
    REMAINING.set(new long[] {MAX_UNITS - units});
    try {
      return validation.get();
    } finally {
      REMAINING.set(previous);
    }
  }

  /** Spends {@code units}; outside {@link #within} nothing is matched against input, so it refuses. */
  static void charge(long units) {
    long[] remaining = REMAINING.get();
    if (remaining == null || remaining[0] < units) {
      throw new ExceededException();
    }
    remaining[0] -= units;
  }
}
