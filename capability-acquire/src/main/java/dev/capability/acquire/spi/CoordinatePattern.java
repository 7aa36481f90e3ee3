package dev.capability.acquire.spi;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.Coordinates;
import java.util.regex.Pattern;

/**
 * Which coordinates a key may sign: {@code group:artifact}, where the artifact may be {@code *}
 * and the group may end in {@code .*} (that group and every group below it). There is no bare
 * {@code *} for the group: a key is always bound to a group the operator named.
 */
public record CoordinatePattern(String group, boolean subgroups, String artifact) {
  private static final Pattern GROUP = Pattern.compile("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*");
  private static final Pattern ARTIFACT = Pattern.compile("\\*|[A-Za-z0-9_][A-Za-z0-9_.-]*");

  /** Parses a pattern from a keyring; a bad one is {@link AcquisitionCodes#KEYRING_INVALID}. */
  public static CoordinatePattern parse(String text) {
    return parse(text, AcquisitionCodes.KEYRING_INVALID);
  }

  /** Parses a pattern; a bad one is refused with {@code code}. */
  public static CoordinatePattern parse(String text, String code) {
    int colon = text.indexOf(':');
    if (colon < 0 || text.indexOf(':', colon + 1) >= 0) {
      throw invalid(text, code);
    }
    String group = text.substring(0, colon);
    String artifact = text.substring(colon + 1);
    boolean subgroups = group.endsWith(".*");
    if (subgroups) {
      group = group.substring(0, group.length() - 2);
    }
    if (!GROUP.matcher(group).matches() || !ARTIFACT.matcher(artifact).matches() || artifact.contains("..")) {
      throw invalid(text, code);
    }
    return new CoordinatePattern(group, subgroups, artifact);
  }

  /** Whether {@code coordinates} are among those this pattern names. */
  public boolean matches(Coordinates coordinates) {
    boolean groupMatches = coordinates.group().equals(group) || (subgroups && coordinates.group().startsWith(group + "."));
    return groupMatches && (artifact.equals("*") || artifact.equals(coordinates.artifact()));
  }

  @Override
  public String toString() {
    return group + (subgroups ? ".*" : "") + ":" + artifact;
  }

  private static AcquisitionRefusedException invalid(String text, String code) {
    return new AcquisitionRefusedException(
        code,
        "coordinate pattern '" + text + "' is not group:artifact, group.*:artifact or group:* (artifact may be *)");
  }
}
