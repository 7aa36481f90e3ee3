package dev.capability.acquire;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Exact Maven coordinates {@code group:artifact:version[:classifier][@type]}. The type defaults to
 * {@code jar}. Only exact versions exist here: a Maven range ({@code [1.0,2.0)}), a Gradle
 * dynamic version ({@code 1.+}, {@code +}, {@code latest.release}), {@code LATEST}, {@code
 * RELEASE} or a snapshot is refused before anything is requested, and no part may hold a path
 * separator, {@code ..} or a control character, so that {@link #repositoryPath()} always names one
 * file inside a repository.
 *
 * @param classifier empty when there is none
 */
public record Coordinates(String group, String artifact, String version, String classifier, String type) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");
  private static final Pattern GROUP = Pattern.compile("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*");
  private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.+-]*");
  private static final Pattern TYPE = Pattern.compile("[a-z0-9]+(\\.[a-z0-9]+)*");
  private static final Pattern TIMESTAMPED_SNAPSHOT = Pattern.compile(".*-\\d{8}\\.\\d{6}-\\d+");
  private static final int MAX_LENGTH = 512;

  public Coordinates {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(artifact, "artifact");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(classifier, "classifier");
    Objects.requireNonNull(type, "type");
    check("group", group, GROUP);
    check("artifact", artifact, NAME);
    checkVersion(version);
    if (!classifier.isEmpty()) {
      check("classifier", classifier, NAME);
    }
    check("type", type, TYPE);
  }

  /**
   * Parses {@code text}.
   *
   * @throws AcquisitionRefusedException {@link AcquisitionCodes#COORDINATES_MALFORMED}, {@link
   *     AcquisitionCodes#COORDINATES_RANGE}, {@link AcquisitionCodes#COORDINATES_NOT_EXACT} or
   *     {@link AcquisitionCodes#COORDINATES_SNAPSHOT}, naming the part that was wrong
   */
  public static Coordinates parse(String text) {
    if (text == null || text.isEmpty()) {
      throw malformed("coordinates are empty; expected group:artifact:version[:classifier][@type]");
    }
    if (text.length() > MAX_LENGTH) {
      throw malformed("coordinates are longer than " + MAX_LENGTH + " characters");
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c) || Character.isWhitespace(c) || c == '/' || c == '\\') {
        throw malformed(
            "coordinates hold " + describe(c) + " at offset " + i + "; expected group:artifact:version[:classifier][@type]");
      }
    }
    String type = "jar";
    String rest = text;
    int at = text.indexOf('@');
    if (at >= 0) {
      if (text.indexOf('@', at + 1) >= 0) {
        throw malformed("coordinates hold more than one '@'");
      }
      type = text.substring(at + 1);
      rest = text.substring(0, at);
    }
    String[] parts = rest.split(":", -1);
    if (parts.length < 3 || parts.length > 4) {
      throw malformed(
          "'" + text + "' has " + parts.length + " ':'-separated parts; expected group:artifact:version[:classifier][@type]");
    }
    String[] names = {"group", "artifact", "version", "classifier"};
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].isEmpty()) {
        throw malformed("the " + names[i] + " of '" + text + "' is empty");
      }
    }
    if (type.isEmpty()) {
      throw malformed("the type of '" + text + "' is empty");
    }
    return new Coordinates(parts[0], parts[1], parts[2], parts.length == 4 ? parts[3] : "", type);
  }

  /** The classifier, when there is one. */
  public Optional<String> classifierIfAny() {
    return classifier.isEmpty() ? Optional.empty() : Optional.of(classifier);
  }

  /** The artifact's file name: {@code artifact-version[-classifier].type}. */
  public String fileName() {
    return artifact + "-" + version + (classifier.isEmpty() ? "" : "-" + classifier) + "." + type;
  }

  /** The artifact's path in the standard Maven repository layout, relative to the repository root. */
  public String repositoryPath() {
    return group.replace('.', '/') + "/" + artifact + "/" + version + "/" + fileName();
  }

  /** {@code group:artifact}, the part a signing key is authorized for. */
  public String module() {
    return group + ":" + artifact;
  }

  @Override
  public String toString() {
    return group + ":" + artifact + ":" + version + (classifier.isEmpty() ? "" : ":" + classifier) + (type.equals("jar") ? "" : "@" + type);
  }

  private static void checkVersion(String version) {
    if (version.isEmpty()) {
      throw malformed("the version is empty");
    }
    char first = version.charAt(0);
    char last = version.charAt(version.length() - 1);
    if (first == '[' || first == '(' || last == ']' || last == ')' || version.indexOf(',') >= 0) {
      throw new AcquisitionRefusedException(
          AcquisitionCodes.COORDINATES_RANGE, "version '" + version + "' is a range; only an exact version can be acquired");
    }
    if (version.endsWith("+")) {
      throw new AcquisitionRefusedException(
          AcquisitionCodes.COORDINATES_RANGE,
          "version '" + printable(version) + "' is a dynamic (prefix) version; only an exact version can be acquired");
    }
    String upper = version.toUpperCase(Locale.ROOT);
    if (upper.equals("LATEST") || upper.equals("RELEASE") || upper.startsWith("LATEST.")) {
      throw new AcquisitionRefusedException(
          AcquisitionCodes.COORDINATES_NOT_EXACT, "version '" + printable(version) + "' is not exact; name the version to acquire");
    }
    if (upper.contains("SNAPSHOT") || TIMESTAMPED_SNAPSHOT.matcher(version).matches()) {
      throw new AcquisitionRefusedException(
          AcquisitionCodes.COORDINATES_SNAPSHOT, "version '" + version + "' is a snapshot; snapshots change and cannot be acquired");
    }
    check("version", version, VERSION);
  }

  private static void check(String part, String value, Pattern pattern) {
    if (value.length() > MAX_LENGTH || !pattern.matcher(value).matches() || value.contains("..")) {
      throw malformed("the " + part + " '" + printable(value) + "' is not allowed; it must match " + pattern.pattern() + " without '..'");
    }
  }

  private static String printable(String value) {
    StringBuilder out = new StringBuilder();
    value.codePoints().limit(80).forEach(c -> out.append(c >= 0x20 && c < 0x7f ? Character.toString(c) : String.format("\\u%04X", c)));
    return out.toString();
  }

  private static String describe(char c) {
    return switch (c) {
      case '/', '\\' -> "a path separator '" + c + "'";
      default -> String.format("the character U+%04X", (int) c);
    };
  }

  private static AcquisitionRefusedException malformed(String message) {
    return new AcquisitionRefusedException(AcquisitionCodes.COORDINATES_MALFORMED, message);
  }
}
