package dev.capability.kernel.api.json.internal;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Converts Java numbers to the IEEE-754 double that RFC 8785 serializes, refusing every number
 * whose value would change on the way. Because every accepted number is exactly a double, and
 * distinct doubles print distinctly, the canonical text identifies the number that was given: two
 * different values never share a hash.
 */
public final class ExactDoubles {
  /** The types {@link #of} accepts, for error messages. */
  public static final String ACCEPTED_TYPES =
      "Integer, Long, Short, Byte, BigInteger, BigDecimal, Double, Float";

  /** Every finite double is below 2^1024: a wider integer cannot be one. */
  private static final int MAX_DOUBLE_BITS = 1024;

  /**
   * Finite doubles lie between 4.9e-324 and 1.8e308; a decimal whose leading digit sits far outside
   * that range is refused before any exact (and, for such scales, costly) comparison.
   */
  private static final int MAX_DECIMAL_MAGNITUDE = 330;

  /** Longer numbers are cut in messages, so that a hostile value cannot flood a log. */
  private static final int MAX_NUMBER_IN_MESSAGE = 64;

  private ExactDoubles() {}

  /**
   * {@code number} as the double of exactly the same value.
   *
   * @throws IllegalArgumentException naming the number and why it has no exact double: NaN or
   *     infinite, an integer or decimal that a double cannot hold exactly, or a type other than
   *     {@link #ACCEPTED_TYPES} (subclasses of BigInteger and BigDecimal included, since they can
   *     override what they report)
   */
  public static double of(Number number) {
    Class<?> type = number.getClass();
    if (type == Double.class || type == Float.class) {
      double value = number.doubleValue();
      if (!Double.isFinite(value)) {
        throw new IllegalArgumentException(
            value + " is not a JSON number: RFC 8785 allows only finite IEEE-754 doubles");
      }
      return value;
    }
    if (type == Integer.class || type == Short.class || type == Byte.class) {
      return number.intValue();
    }
    if (type == Long.class) {
      return exactIntegral(BigInteger.valueOf(number.longValue()));
    }
    if (type == BigInteger.class) {
      return exactIntegral((BigInteger) number);
    }
    if (type == BigDecimal.class) {
      return exactDecimal((BigDecimal) number);
    }
    throw new IllegalArgumentException(
        "unsupported number type " + type.getName() + "; accepted: " + ACCEPTED_TYPES);
  }

  private static double exactIntegral(BigInteger integer) {
    int bits = integer.abs().bitLength();
    double value = bits > MAX_DOUBLE_BITS ? Double.NaN : integer.doubleValue();
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(
          "integer of " + bits + " bits is beyond the IEEE-754 double range that RFC 8785"
              + " numbers are limited to; send it as a JSON string instead");
    }
    if (!new BigDecimal(value).toBigIntegerExact().equals(integer)) {
      throw new IllegalArgumentException(
          "integer "
              + abbreviated(integer.toString())
              + " is not exactly representable as an IEEE-754 double; RFC 8785 serializes every"
              + " number as a double, so it would be silently rounded to "
              + abbreviated(new BigDecimal(value).toPlainString())
              + " and hash like that different number; send it as a JSON string instead");
    }
    return value;
  }

  private static double exactDecimal(BigDecimal decimal) {
    if (decimal.signum() == 0) {
      return 0;
    }
    long magnitude = (long) decimal.precision() - decimal.scale() - 1;
    if (Math.abs(magnitude) > MAX_DECIMAL_MAGNITUDE) {
      throw new IllegalArgumentException(
          "decimal with magnitude 1e" + magnitude + " is outside the IEEE-754 double range that"
              + " RFC 8785 numbers are limited to; send it as a JSON string instead");
    }
    double value = decimal.doubleValue();
    if (!Double.isFinite(value) || new BigDecimal(value).compareTo(decimal) != 0) {
      throw new IllegalArgumentException(
          "decimal "
              + abbreviated(decimal.toString())
              + " is not exactly representable as an IEEE-754 double; RFC 8785 serializes every"
              + " number as a double, so it would be silently rounded and hash like a different"
              + " number; pass the Double you mean, or send the decimal as a JSON string");
    }
    return value;
  }

  private static String abbreviated(String number) {
    if (number.length() <= MAX_NUMBER_IN_MESSAGE) {
      return number;
    }
    return number.substring(0, MAX_NUMBER_IN_MESSAGE / 2)
        + "..."
        + number.substring(number.length() - 8)
        + " ("
        + number.length()
        + " characters)";
  }
}
