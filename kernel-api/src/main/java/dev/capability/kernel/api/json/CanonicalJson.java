package dev.capability.kernel.api.json;

import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.json.internal.CanonicalWriter;
import org.jspecify.annotations.Nullable;

/**
 * RFC 8785 JSON Canonicalization Scheme (JCS) over plain Java values: one exact text, and so one
 * hash, for every JSON value, whatever map order or number type produced it. The kernel hashes
 * policies, command specs, plans and ledger entries through this class; hosts call it to recompute
 * those hashes when they verify an attestation.
 *
 * <p>Accepted values, nested up to {@link #MAX_DEPTH} arrays and objects:
 *
 * <ul>
 *   <li>{@code null}, {@link Boolean}, {@link String} (well-formed UTF-16: no lone surrogates);
 *   <li>{@link Integer}, {@link Long}, {@link Short}, {@link Byte}, {@link java.math.BigInteger},
 *       {@link java.math.BigDecimal}, {@link Double}, {@link Float}, each only when its value is
 *       exactly a finite IEEE-754 double, since RFC 8785 numbers are doubles. A {@code Long} above
 *       2^53 that a double cannot hold is refused, never rounded, so that two different numbers
 *       never print alike; send such numbers as strings. A {@code Float} is widened exactly, so
 *       {@code 0.1f} prints as {@code 0.10000000149011612};
 *   <li>{@link java.util.Map} with {@code String} keys, as an object; members sorted by the UTF-16
 *       code units of their names;
 *   <li>{@link java.util.List}, {@link java.util.SortedSet}, {@link java.util.LinkedHashSet} and
 *       {@link java.util.Deque}, as arrays in iteration order. Other collections, such as {@code
 *       HashSet} or {@code Set.of(...)}, are refused: their order is not part of their value and
 *       can change between runs, so they have no canonical form;
 *   <li>Java arrays of the above, object or primitive, except {@code char[]}.
 * </ul>
 *
 * <p>The output has no whitespace; strings are escaped as ECMAScript {@code JSON.stringify} does
 * (only {@code "}, {@code \} and controls below U+0020; {@code \b \t \n \f \r} in short form, the
 * others as lower-case {@code \}{@code u00xx}); numbers print as ECMAScript {@code
 * Number.prototype.toString} prints the double: shortest round-trip digits, {@code -0} as {@code
 * 0}, exponent form outside [1e-6, 1e21) as in {@code 1e+21} or {@code 5e-324}.
 *
 * <p>Anything else is refused with an {@link IllegalArgumentException} whose message names the
 * RFC 6901 JSON pointer of the offending value and why: an unsupported type, NaN or an infinity, a
 * number that is not exactly a double, a non-{@code String} or duplicate member name, a lone
 * surrogate, a reference cycle, or nesting deeper than {@link #MAX_DEPTH}. Nothing is ever
 * silently dropped, rounded or replaced.
 *
 * <p>The class is stateless and thread-safe. Values must not be modified by another thread while
 * they are serialized.
 */
public final class CanonicalJson {
  /** How many arrays and objects may enclose one another; the outermost container counts as 1. */
  public static final int MAX_DEPTH = 1000;

  private CanonicalJson() {}

  /**
   * The RFC 8785 canonical JSON text of {@code value}.
   *
   * @throws IllegalArgumentException if the value has no canonical form; the message names the
   *     JSON pointer of the offending value and the reason
   */
  public static String serialize(@Nullable Object value) {
    return CanonicalWriter.write(value, MAX_DEPTH);
  }

  /**
   * The UTF-8 bytes of {@link #serialize(Object)}, the exact input of every canonical hash.
   *
   * @throws IllegalArgumentException as {@link #serialize(Object)}
   */
  public static byte[] bytes(@Nullable Object value) {
    // Exact: lone surrogates, the only strings UTF-8 cannot encode, are refused.
    return CanonicalWriter.bytes(value, MAX_DEPTH);
  }

  /**
   * Lower-case hex SHA-256 of {@link #bytes(Object)}: 64 characters.
   *
   * @throws IllegalArgumentException as {@link #serialize(Object)}
   */
  public static String sha256(@Nullable Object value) {
    return Sha256.hex(bytes(value));
  }
}
