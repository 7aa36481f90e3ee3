package dev.capability.linux.internal;

import com.sun.jna.StringArray;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.List;

/**
 * Strings for C, encoded the way the JDK encodes file names and process arguments ({@code
 * sun.jnu.encoding}), so that a path the JDK checked and the path a native call opens are the same
 * bytes. JNA's own string conversion follows the default charset instead, which under a C locale on
 * Java 17 replaces every non-ASCII character with {@code ?}.
 */
public final class CStrings {
  private static final Charset NATIVE =
      Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));

  private CStrings() {}

  /**
   * The NUL-terminated bytes of {@code text}.
   *
   * @throws IllegalArgumentException when it contains NUL, or a character the encoding lacks
   */
  public static byte[] of(String text) {
    if (text.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("contains NUL: " + text.replace('\0', '?'));
    }
    if (!NATIVE.newEncoder().canEncode(text)) {
      throw new IllegalArgumentException(
          "cannot be encoded in " + NATIVE + " without loss: " + text);
    }
    byte[] bytes = text.getBytes(NATIVE);
    return Arrays.copyOf(bytes, bytes.length + 1);
  }

  /** A NULL-terminated array of C strings, each checked like {@link #of}. */
  public static StringArray array(List<String> texts) {
    texts.forEach(CStrings::of);
    return new StringArray(texts.toArray(String[]::new), NATIVE.name());
  }
}
