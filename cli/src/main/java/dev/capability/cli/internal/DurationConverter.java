package dev.capability.cli.internal;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Durations as {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, or ISO-8601 ({@code PT30S}). */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern SIMPLE = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    Matcher m = SIMPLE.matcher(value);
    Duration d;
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      d = switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        default -> Duration.ofHours(n);
      };
    } else {
      try {
        d = Duration.parse(value);
      } catch (DateTimeParseException e) {
        throw new CommandLine.TypeConversionException(
            "'" + value + "' is not a duration; use 500ms, 30s, 2m, 1h or ISO-8601 such as PT30S");
      }
    }
    if (d.isZero() || d.isNegative()) {
      throw new CommandLine.TypeConversionException("the duration must be positive, was '" + value + "'");
    }
    return d;
  }
}
