package dev.capability.backend.tck;

import dev.capability.kernel.api.backend.LaunchResult;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The host programs the suite's fixtures use, and small helpers for their output. */
final class Tools {
  private Tools() {}

  /**
   * The first executable named {@code name} in {@code /usr/bin} or {@code /bin}, never looked up in
   * a PATH.
   *
   * @throws IllegalStateException when neither holds it
   */
  static Path find(String name) {
    for (String directory : List.of("/usr/bin", "/bin")) {
      Path candidate = Path.of(directory, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "the contract suite needs " + name + " in /usr/bin or /bin, and this machine has none");
  }

  /** Splits NUL-terminated UTF-8 strings, as written by {@code printf '%s\0'} or {@code env -0}. */
  static List<String> nulTerminated(byte[] bytes) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        parts.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    if (start < bytes.length) {
      parts.add(new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8));
    }
    return parts;
  }

  /**
   * True when this JVM hands any Unicode string to a child process unchanged: the JDK encodes argv
   * and environment in the default charset (JDK 17) or {@code sun.jnu.encoding} (later JDKs).
   */
  static boolean jvmPassesUnicode() {
    String jnu = System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name());
    return Charset.defaultCharset().equals(StandardCharsets.UTF_8)
        && Charset.isSupported(jnu)
        && Charset.forName(jnu).equals(StandardCharsets.UTF_8);
  }

  static boolean isAscii(String s) {
    return s.chars().allMatch(c -> c < 0x80);
  }

  /** Lines of {@code key value} on a fixture's stdout, as a map. */
  static Map<String, String> report(LaunchResult result) {
    Map<String, String> report = new LinkedHashMap<>();
    for (String line : result.stdout().text().lines().toList()) {
      int space = line.indexOf(' ');
      if (space > 0) {
        report.put(line.substring(0, space), line.substring(space + 1));
      }
    }
    return report;
  }
}
