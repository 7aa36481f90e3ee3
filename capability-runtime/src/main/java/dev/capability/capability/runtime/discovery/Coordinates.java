package dev.capability.capability.runtime.discovery;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Exact Maven coordinates as an index lists them: {@code group:artifact:version[:classifier][@type]}.
 * A version range, {@code LATEST}, {@code RELEASE} or a {@code SNAPSHOT} is refused: an index
 * names one exact artifact or nothing.
 */
public record Coordinates(String group, String artifact, String version, Optional<String> classifier, Optional<String> type) {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");
  private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}");

  public Coordinates {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(artifact, "artifact");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(classifier, "classifier");
    Objects.requireNonNull(type, "type");
    check(group, ID, "group");
    check(artifact, ID, "artifact");
    classifier.ifPresent(value -> check(value, ID, "classifier"));
    type.ifPresent(value -> check(value, ID, "type"));
    if (!VERSION.matcher(version).matches()) {
      throw refused("version '" + version + "' is not one exact version (ranges are refused)");
    }
    if (version.equals("LATEST") || version.equals("RELEASE") || version.endsWith("-SNAPSHOT") || version.equals("SNAPSHOT")) {
      throw refused("version '" + version + "' is not exact; LATEST, RELEASE and SNAPSHOT are refused");
    }
  }

  /**
   * Parses {@code group:artifact:version[:classifier][@type]}.
   *
   * @throws IndexRefusedException {@link DiscoveryCodes#INDEX_INVALID} for anything else
   */
  public static Coordinates parse(String text) {
    Objects.requireNonNull(text, "text");
    String main = text;
    Optional<String> type = Optional.empty();
    int at = text.indexOf('@');
    if (at >= 0) {
      main = text.substring(0, at);
      type = Optional.of(text.substring(at + 1));
    }
    String[] parts = main.split(":", -1);
    if (parts.length < 3 || parts.length > 4) {
      throw refused("coordinates must be group:artifact:version[:classifier][@type]");
    }
    Optional<String> classifier = parts.length == 4 ? Optional.of(parts[3]) : Optional.empty();
    return new Coordinates(parts[0], parts[1], parts[2], classifier, type);
  }

  private static void check(String value, Pattern pattern, String what) {
    if (!pattern.matcher(value).matches()) {
      throw refused(what + " must match " + pattern.pattern());
    }
  }

  private static IndexRefusedException refused(String why) {
    return new IndexRefusedException(DiscoveryCodes.INDEX_INVALID, "coordinates: " + why);
  }

  @Override
  public String toString() {
    return group + ":" + artifact + ":" + version + classifier.map(c -> ":" + c).orElse("") + type.map(t -> "@" + t).orElse("");
  }
}
