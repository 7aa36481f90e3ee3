package dev.capability.kernel.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks the output against a real ECMAScript engine, the reference RFC 8785 is defined by: Node.js
 * prints every number with {@code String(x)} and every value with {@code JSON.stringify} over
 * keys sorted by the engine's default (UTF-16 code unit) sort. Skipped where no {@code node} is on
 * the PATH.
 */
class CanonicalJsonEcmaScriptOracleTest {
  private static final String ORACLE =
      String.join(
          "\n",
          "const view = new DataView(new ArrayBuffer(8));",
          "const canonical = v => Array.isArray(v) ? '[' + v.map(canonical).join(',') + ']'",
          "  : v !== null && typeof v === 'object'",
          "    ? '{' + Object.keys(v).sort()",
          "        .map(k => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}'",
          "    : JSON.stringify(v);",
          "const out = [];",
          "for (const line of require('fs').readFileSync(0, 'utf8').split('\\n')) {",
          "  if (line.startsWith('n ')) {",
          "    view.setBigUint64(0, BigInt('0x' + line.slice(2)));",
          "    out.push(String(view.getFloat64(0)));",
          "  } else if (line.startsWith('v ')) {",
          "    out.push(canonical(JSON.parse(line.slice(2))));",
          "  }",
          "}",
          "process.stdout.write(out.join('\\n') + '\\n');");

  private static final int RANDOM_NUMBERS = 30_000;
  private static final int RANDOM_VALUES = 3_000;

  @TempDir Path work;

  @Test
  void printsNumbersExactlyAsAnEcmaScriptEngineDoes() throws Exception {
    List<Double> numbers = new ArrayList<>();
    for (int exponent = -1074; exponent <= 1023; exponent++) {
      numbers.add(Math.scalb(1.0, exponent));
      numbers.add(-Math.nextDown(Math.scalb(1.0, exponent)));
    }
    for (double power = 1e-7; power < 1e22; power *= 10) {
      numbers.addAll(List.of(power, Math.nextUp(power), Math.nextDown(power)));
    }
    Random random = new Random(8785);
    while (numbers.size() < RANDOM_NUMBERS) {
      double value = Double.longBitsToDouble(random.nextLong());
      if (Double.isFinite(value)) {
        numbers.add(value);
        numbers.add(random.nextInt(2_000_000) / Math.pow(10, random.nextInt(12)));
      }
    }
    List<String> input = new ArrayList<>();
    List<String> ours = new ArrayList<>();
    for (double number : numbers) {
      input.add("n " + Long.toHexString(Double.doubleToRawLongBits(number)));
      ours.add(CanonicalJson.serialize(number));
    }

    assertLinesMatch(input, ours);
  }

  @Test
  void serializesValuesExactlyAsAnEcmaScriptEngineDoes() throws Exception {
    ObjectMapper jackson = new ObjectMapper();
    Random random = new Random(8259);
    List<String> input = new ArrayList<>();
    List<String> ours = new ArrayList<>();
    for (int i = 0; i < RANDOM_VALUES; i++) {
      Object value = randomValue(random, 0);
      // Jackson writes members in insertion order and doubles in Java's notation: not canonical.
      input.add("v " + jackson.writeValueAsString(value));
      ours.add(CanonicalJson.serialize(value));
    }

    assertLinesMatch(input, ours);
  }

  private void assertLinesMatch(List<String> input, List<String> ours) throws Exception {
    Optional<Path> node = nodeOnPath();
    assumeTrue(node.isPresent(), "no node on PATH to serve as the ECMAScript oracle");
    Path in = Files.write(work.resolve("in.txt"), input, StandardCharsets.UTF_8);
    Path out = work.resolve("out.txt");
    Path err = work.resolve("err.txt");
    Process process =
        new ProcessBuilder(node.get().toString(), "-e", ORACLE)
            .redirectInput(in.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("node finished").isTrue();
    assertThat(process.exitValue()).as(Files.readString(err)).isZero();

    List<String> expected = Arrays.asList(Files.readString(out, StandardCharsets.UTF_8).split("\n"));
    assertThat(expected).hasSameSizeAs(ours);
    for (int i = 0; i < ours.size(); i++) {
      assertThat(ours.get(i)).as("line %d: %s", i, input.get(i)).isEqualTo(expected.get(i));
    }
  }

  private static Optional<Path> nodeOnPath() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    return Arrays.stream(path.split(File.pathSeparator))
        .filter(dir -> !dir.isEmpty())
        .map(dir -> Path.of(dir, "node"))
        .filter(Files::isExecutable)
        .findFirst();
  }

  private static Object randomValue(Random random, int depth) {
    return switch (random.nextInt(depth < 3 ? 9 : 6)) {
      case 0 -> null;
      case 1 -> random.nextBoolean();
      case 2 -> randomString(random);
      case 3 -> {
        double value = Double.longBitsToDouble(random.nextLong());
        yield Double.isFinite(value) ? value : 0.5;
      }
      case 4 -> random.nextInt(100_000) / Math.pow(10, random.nextInt(8));
      // at most 53 significant bits: exactly a double
      case 5 -> random.nextLong() >> (11 + random.nextInt(53));
      case 6, 7 -> {
        Map<String, Object> members = new LinkedHashMap<>();
        for (int i = random.nextInt(6); i > 0; i--) {
          members.put(randomString(random), randomValue(random, depth + 1));
        }
        yield members;
      }
      default -> {
        List<Object> elements = new ArrayList<>();
        for (int i = random.nextInt(5); i > 0; i--) {
          elements.add(randomValue(random, depth + 1));
        }
        yield elements;
      }
    };
  }

  /** Well-formed Unicode weighted to where escaping and UTF-16 ordering differ from naive. */
  private static String randomString(Random random) {
    int[][] ranges = {
      {0x00, 0x1f}, {0x20, 0x7f}, {0x80, 0x7ff}, {0x2028, 0x2029}, {0xe000, 0xffff},
      {0x10000, 0x10ffff}, {'0', '9'},
    };
    StringBuilder text = new StringBuilder();
    for (int i = random.nextInt(6); i > 0; i--) {
      int[] range = ranges[random.nextInt(ranges.length)];
      text.appendCodePoint(range[0] + random.nextInt(range[1] - range[0] + 1));
    }
    return text.toString();
  }
}
