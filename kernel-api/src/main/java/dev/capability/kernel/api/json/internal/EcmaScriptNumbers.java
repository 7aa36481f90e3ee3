package dev.capability.kernel.api.json.internal;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * ECMAScript {@code Number.prototype.toString} (ECMA-262, Number::toString) of a finite double,
 * which RFC 8785 prescribes for every JSON number.
 *
 * <p>Java 17's {@link Double#toString(double)} does not always pick the shortest digits that read
 * back as the same double (JDK-4511638, fixed only in Java 19), so the digits are searched for
 * here with exact decimal arithmetic.
 */
public final class EcmaScriptNumbers {
  /** 2^53: below it every integral double prints as its own digits, with no search needed. */
  private static final double EXACT_INTEGER_LIMIT = 0x1p53;

  /** 17 significant digits always identify a double uniquely (IEEE 754-2008, 5.12.2). */
  private static final int MAX_SIGNIFICANT_DIGITS = 17;

  private EcmaScriptNumbers() {}

  /**
   * The ECMAScript text of {@code value}: {@code -0} prints as {@code 0}, fixed notation for
   * magnitudes in [1e-6, 1e21), exponent notation ({@code 1e+21}, {@code 1.5e-7}) outside it, and
   * the fewest significant digits that read back as {@code value}, the closest such digits when
   * more than one candidate has that length.
   *
   * @throws IllegalArgumentException if {@code value} is NaN or infinite, which have no JSON form
   */
  public static String format(double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(value + " has no JSON number form");
    }
    if (value == 0) {
      return "0";
    }
    if (isSmallInteger(value)) {
      return Long.toString((long) value);
    }
    return formatBySearch(value);
  }

  /**
   * The ECMAScript text of a finite, non-zero {@code value} by the exact digit search, whatever
   * its magnitude: {@link #format} takes it for every value but small integers.
   */
  static String formatBySearch(double value) {
    String sign = value < 0 ? "-" : "";
    BigDecimal digits = shortestDigits(Math.abs(value)).stripTrailingZeros();
    String significand = digits.unscaledValue().toString();
    int decimalExponent = significand.length() - digits.scale();
    return sign + layout(significand, decimalExponent);
  }

  /**
   * Whether {@code value} is an integer of magnitude below 2^53, which ECMAScript prints as the
   * digits of its {@code long}, with no search needed ({@code -0.0} included, printed as 0).
   */
  static boolean isSmallInteger(double value) {
    return value == Math.rint(value) && Math.abs(value) < EXACT_INTEGER_LIMIT;
  }

  /**
   * The decimal with the fewest significant digits that reads back as {@code positive}; among
   * those of equal length the closest, ties to an even last digit (ECMA-262 Number::toString,
   * step 5 and its note).
   */
  static BigDecimal shortestDigits(double positive) {
    BigDecimal exact = new BigDecimal(positive);
    // If some decimal of p digits reads back, so does one of p + 1 digits (the neighbours of the
    // exact value only get closer), so the least such p can be found by bisection.
    int low = 1;
    int high = MAX_SIGNIFICANT_DIGITS;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (closestThatReadsBack(exact, middle, positive) != null) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    return closestThatReadsBack(exact, low, positive);
  }

  /**
   * The closest decimal of {@code precision} digits that reads back as {@code value}, or null.
   * Only the two neighbours of the exact value can qualify: the decimals that round to a double
   * form an interval around it. Both must be tried, because just above a power of two that
   * interval is lopsided and the nearer neighbour may fall outside it while the farther one is
   * inside.
   */
  private static BigDecimal closestThatReadsBack(BigDecimal exact, int precision, double value) {
    BigDecimal below = exact.round(new MathContext(precision, RoundingMode.FLOOR));
    BigDecimal above = exact.round(new MathContext(precision, RoundingMode.CEILING));
    boolean belowReadsBack = readsBackAs(below, value);
    boolean aboveReadsBack = readsBackAs(above, value);
    if (belowReadsBack && aboveReadsBack) {
      return exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
    }
    if (belowReadsBack) {
      return below;
    }
    return aboveReadsBack ? above : null;
  }

  private static boolean readsBackAs(BigDecimal candidate, double value) {
    // Double.parseDouble rounds correctly to nearest-even, which is exactly "reads back as".
    return Double.parseDouble(candidate.toString()) == value;
  }

  /**
   * Places the point per ECMA-262 Number::toString steps 6 to 10, where the value is
   * 0.{@code significand} times ten to the {@code decimalExponent} (the spec's n).
   */
  private static String layout(String significand, int decimalExponent) {
    int k = significand.length();
    int n = decimalExponent;
    if (k <= n && n <= 21) {
      return significand + "0".repeat(n - k);
    }
    if (0 < n && n <= 21) {
      return significand.substring(0, n) + "." + significand.substring(n);
    }
    if (-6 < n && n <= 0) {
      return "0." + "0".repeat(-n) + significand;
    }
    int exponent = n - 1;
    String mantissa = k == 1 ? significand : significand.charAt(0) + "." + significand.substring(1);
    return mantissa + "e" + (exponent < 0 ? "-" : "+") + Math.abs(exponent);
  }
}
