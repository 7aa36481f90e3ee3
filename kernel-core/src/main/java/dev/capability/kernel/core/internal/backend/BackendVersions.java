package dev.capability.kernel.core.internal.backend;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Holds a backend to the policy's minimum versions of what enforces it. A reported version counts
 * by its leading dot-separated numbers ({@code 20.10.24+dfsg1} is 20.10.24, {@code 1.6.20~ds1} is
 * 1.6.20), missing places being 0; a component the backend does not report, or a version without
 * a leading number, is unknown and never meets a minimum.
 */
public final class BackendVersions {
  private static final Pattern LEADING_NUMBERS = Pattern.compile("^v?([0-9]{1,9}(?:\\.[0-9]{1,9})*)");

  private BackendVersions() {}

  /**
   * Refuses {@code backend} when it falls short of {@code minimums} for its id.
   *
   * @param minimums backend id to component name to least version, as the policy states them
   * @throws BackendUnavailableException {@code BACKEND_VERSION_TOO_OLD} naming each component that
   *     falls short, what it reports and the minimum
   */
  public static void requireMinimums(ExecutionBackend backend, Map<String, Map<String, String>> minimums) {
    Map<String, String> required = minimums.getOrDefault(backend.id(), Map.of());
    Map<String, String> reported = backend.versions();
    List<String> shortfalls = new ArrayList<>();
    required.forEach((component, minimum) -> {
      String actual = reported.get(component);
      Optional<int[]> numbers = actual == null ? Optional.empty() : numbers(actual);
      if (numbers.isEmpty()) {
        shortfalls.add(component + " " + (actual == null ? "is not reported" : "reports no version number ('" + actual + "')")
            + ", the policy requires at least " + minimum);
      } else if (compare(numbers.get(), numbers(minimum).orElseThrow()) < 0) {
        shortfalls.add(component + " " + actual + " is older than the policy's minimum " + minimum);
      }
    });
    if (!shortfalls.isEmpty()) {
      throw new BackendUnavailableException(BackendUnavailableException.VERSION_TOO_OLD,
          "the " + backend.id() + " backend does not meet the policy's backendVersions: " + String.join("; ", shortfalls)
              + " (it reports " + reported + ")");
    }
  }

  static Optional<int[]> numbers(String version) {
    Matcher m = LEADING_NUMBERS.matcher(version.strip());
    if (!m.find()) {
      return Optional.empty();
    }
    String[] parts = m.group(1).split("\\.");
    int[] numbers = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      numbers[i] = Integer.parseInt(parts[i]);
    }
    return Optional.of(numbers);
  }

  static int compare(int[] a, int[] b) {
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      int c = Integer.compare(i < a.length ? a[i] : 0, i < b.length ? b[i] : 0);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }
}
