package dev.capability.acquire;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An exact npm package version: {@code name@version} or {@code @scope/name@version}. A range
 * ({@code ^1.2.0}, {@code ~1}, {@code >=1}, {@code 1.x}, {@code *}, {@code 1 || 2}) or a dist-tag
 * ({@code latest}, {@code next}) is refused: only an exact semantic version names one tarball.
 */
public record NpmCoordinates(String name, String version) {
  private static final Pattern NAME = Pattern.compile("(@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*");
  private static final Pattern SEMVER = Pattern.compile(
      "(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?(\\+[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?");
  private static final Pattern RANGE = Pattern.compile(".*([\\^~<>=*| ]|\\|\\||(^|\\.)[xX](\\.|$)).*|[0-9]+(\\.[0-9]+)?");
  private static final Pattern TAG = Pattern.compile("[A-Za-z][A-Za-z0-9._-]*");
  private static final int MAX_NAME = 214;

  public NpmCoordinates {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    if (name.length() > MAX_NAME || !NAME.matcher(name).matches() || name.contains("..")) {
      throw malformed("npm package name '" + printable(name) + "' is not a lower-case name or @scope/name");
    }
    checkVersion(version);
  }

  private static void checkVersion(String version) {
    if (SEMVER.matcher(version).matches() && version.length() <= 256) {
      return;
    }
    if (RANGE.matcher(version).matches()) {
      throw new AcquisitionRefusedException(
          AcquisitionCodes.COORDINATES_RANGE, "npm version '" + printable(version) + "' is a range; only an exact version can be acquired");
    }
    if (TAG.matcher(version).matches()) {
      throw new AcquisitionRefusedException(
          AcquisitionCodes.COORDINATES_NOT_EXACT, "npm version '" + printable(version) + "' is a dist-tag; name the exact version");
    }
    throw malformed("npm version '" + printable(version) + "' is not an exact semantic version");
  }

  /**
   * Parses {@code name@version} or {@code @scope/name@version}.
   *
   * @throws AcquisitionRefusedException {@link AcquisitionCodes#COORDINATES_MALFORMED}, {@link
   *     AcquisitionCodes#COORDINATES_RANGE} or {@link AcquisitionCodes#COORDINATES_NOT_EXACT}
   */
  public static NpmCoordinates parse(String text) {
    if (text == null || text.isEmpty()) {
      throw malformed("npm coordinates are empty; expected name@version");
    }
    int at = text.lastIndexOf('@');
    if (at <= 0) {
      throw malformed("npm coordinates '" + printable(text) + "' have no version; expected name@version");
    }
    return new NpmCoordinates(text.substring(0, at), text.substring(at + 1));
  }

  /** The name as one path segment of a registry URL: {@code @scope%2fname}. */
  public String encodedName() {
    return name.replace("/", "%2f");
  }

  @Override
  public String toString() {
    return "npm:" + name + "@" + version;
  }

  private static String printable(String value) {
    StringBuilder out = new StringBuilder();
    value.codePoints().limit(80).forEach(c -> out.append(c >= 0x20 && c < 0x7f ? Character.toString(c) : "?"));
    return out.toString();
  }

  private static AcquisitionRefusedException malformed(String message) {
    return new AcquisitionRefusedException(AcquisitionCodes.COORDINATES_MALFORMED, message);
  }
}
