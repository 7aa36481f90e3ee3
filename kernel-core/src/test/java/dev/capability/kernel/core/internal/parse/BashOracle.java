package dev.capability.kernel.core.internal.parse;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Real bash as the reference for what a command line means. Many inputs are written to one
 * script, one record each, and bash runs it once; if the batch does not come back as exactly one
 * clean record per input, each input is run on its own so that a failure names the input.
 *
 * <p>Bash is started by argv as {@code env -i PATH=<empty dir> HISTFILE=<scratch file> /bin/bash
 * --norc --noprofile -r <script>} in a scratch directory holding a few files a glob could match.
 * The empty PATH and restricted mode ({@code -r}: no output redirection, no command names with a
 * slash) are a safety net for the case where the parser wrongly accepts something; they do not
 * change how words are split or quotes removed. Without a locale in the environment bash reads
 * bytes, which is what the parser's UTF-16 input becomes in UTF-8.
 */
final class BashOracle implements AutoCloseable {
  private static final String BASH = "/bin/bash";
  private static final String ENV = "/usr/bin/env";
  /** Ends every record; accepted inputs never contain control characters, so it cannot clash. */
  private static final String RECORD_END = "printf '\\1\\1\\n'";
  private static final byte[] RECORD_END_BYTES = {1, 1, '\n'};
  private static final String HANDLER = "command_not_found_handle";
  private static final long RUN_LIMIT_SECONDS = 120;

  private final Path root;
  private final Path workDir;
  private final Path emptyPath;
  /** Names bash runs as builtins; as a first word they never reach command lookup. */
  private final Set<String> builtins;
  private int scripts;

  BashOracle() {
    if (!Files.isExecutable(Path.of(BASH)) || !Files.isExecutable(Path.of(ENV))) {
      throw new AssertionError(BASH + " and " + ENV + " are required: bash is the oracle");
    }
    try {
      root = Files.createTempDirectory("parser-oracle");
      workDir = Files.createDirectory(root.resolve("work"));
      emptyPath = Files.createDirectory(root.resolve("empty-path"));
      for (String bait : List.of("a", "b", "ab", "x1", "if", "\u00e9", "a b")) {
        Files.writeString(workDir.resolve(bait), "");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    builtins = Set.copyOf(lines(run("compgen -b\n").stdout));
  }

  /** One input's meaning to bash: the argv it produced, or why it produced none. */
  record Outcome(List<String> argv, String failure) {
    static Outcome of(List<String> argv) {
      return new Outcome(List.copyOf(argv), null);
    }

    static Outcome failed(String failure) {
      return new Outcome(null, failure);
    }

    boolean succeeded() {
      return failure == null;
    }
  }

  /** The arguments bash passes to {@code printf '%s\0'} when each input follows it on a line. */
  List<Outcome> argumentsOf(List<String> inputs) {
    return outcomes("", inputs, BashOracle::printfLine);
  }

  /**
   * As {@link #argumentsOf}, with history expansion switched on as in an interactive shell. Bash
   * prints every line it expands and fails on unknown events, so an input whose meaning history
   * expansion changes does not come back as its own clean record.
   */
  List<Outcome> argumentsWithHistoryExpansionOf(List<String> inputs) {
    return outcomes("set -o history -H\n", inputs, BashOracle::printfLine);
  }

  private static String printfLine(String input) {
    return "printf '%s\\0' " + input + "\n" + RECORD_END + "\n";
  }

  /**
   * The argv bash looks up when each input is a command of its own. PATH is an empty directory,
   * so every lookup fails and bash calls {@code command_not_found_handle} with the original argv,
   * which prints it. An input bash reads as anything but a simple command prints no record.
   * Callers must not pass inputs whose first word is a builtin or contains a slash.
   */
  List<Outcome> commandsOf(List<String> inputs) {
    String prelude = HANDLER + "() { printf '%s\\0' \"$@\"; " + RECORD_END + "; }\n";
    return outcomes(prelude, inputs, input -> input + "\n");
  }

  private List<Outcome> outcomes(
      String prelude, List<String> inputs, Function<String, String> line) {
    StringBuilder script = new StringBuilder(prelude);
    inputs.forEach(input -> script.append(line.apply(input)));
    Run batch = run(script.toString());
    List<byte[]> records = batch.isClean() ? records(batch.stdout) : null;
    if (records != null && records.size() == inputs.size()) {
      List<Outcome> outcomes = new ArrayList<>();
      records.forEach(record -> outcomes.add(decode(record)));
      return outcomes;
    }
    List<Outcome> outcomes = new ArrayList<>();
    for (String input : inputs) {
      Run single = run(prelude + line.apply(input));
      List<byte[]> own = single.isClean() ? records(single.stdout) : null;
      outcomes.add(own != null && own.size() == 1
          ? decode(own.get(0))
          : Outcome.failed(single.describe()));
    }
    return outcomes;
  }

  private static List<byte[]> records(byte[] stdout) {
    List<byte[]> records = new ArrayList<>();
    int start = 0;
    for (int i = 0; i + RECORD_END_BYTES.length <= stdout.length; i++) {
      if (stdout[i] == 1 && stdout[i + 1] == 1 && stdout[i + 2] == '\n') {
        byte[] record = new byte[i - start];
        System.arraycopy(stdout, start, record, 0, record.length);
        records.add(record);
        i += RECORD_END_BYTES.length - 1;
        start = i + 1;
      }
    }
    return start == stdout.length ? records : null;
  }

  /** A record is each argument followed by a NUL byte. */
  private static Outcome decode(byte[] record) {
    List<String> argv = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < record.length; i++) {
      if (record[i] == 0) {
        try {
          argv.add(UTF_8.newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(record, start, i - start))
              .toString());
        } catch (CharacterCodingException e) {
          return Outcome.failed("bash printed an argument that is not UTF-8");
        }
        start = i + 1;
      }
    }
    if (start != record.length) {
      return Outcome.failed("record does not end with a NUL byte: "
          + InputRendering.escape(new String(record, UTF_8)));
    }
    return Outcome.of(argv);
  }

  private record Run(int exitCode, byte[] stdout, String stderr) {
    boolean isClean() {
      return exitCode == 0 && stderr.isEmpty();
    }

    String describe() {
      return "bash exited " + exitCode
          + ", stdout \"" + InputRendering.escape(new String(stdout, UTF_8))
          + "\", stderr \"" + InputRendering.escape(stderr) + "\"";
    }
  }

  private Run run(String script) {
    int n = ++scripts;
    Path scriptFile = root.resolve("script-" + n + ".sh");
    Path stderrFile = root.resolve("stderr-" + n + ".txt");
    try {
      Files.writeString(scriptFile, script, UTF_8);
      Process bash = new ProcessBuilder(
              ENV, "-i", "PATH=" + emptyPath, "HISTFILE=" + root.resolve("history"),
              BASH, "--norc", "--noprofile", "-r", scriptFile.toString())
          .directory(workDir.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
          .redirectError(stderrFile.toFile())
          .start();
      byte[] stdout = bash.getInputStream().readAllBytes();
      if (!bash.waitFor(RUN_LIMIT_SECONDS, TimeUnit.SECONDS)) {
        bash.destroyForcibly();
        throw new AssertionError("bash did not finish " + scriptFile);
      }
      String stderr = Files.readString(stderrFile, UTF_8);
      Files.delete(scriptFile);
      Files.delete(stderrFile);
      return new Run(bash.exitValue(), stdout, stderr);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while running bash", e);
    }
  }

  private static List<String> lines(byte[] bytes) {
    return new String(bytes, UTF_8).lines().filter(line -> !line.isEmpty()).toList();
  }

  /**
   * Removes the scratch files. Tolerates files vanishing or appearing meanwhile: when shrinking
   * times out, jqwik may still be running a bash batch on another thread.
   */
  @Override
  public void close() {
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
            throws IOException {
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
          try {
            Files.deleteIfExists(dir);
          } catch (DirectoryNotEmptyException stillInUse) {
            // Left for the system's temp cleaner; see above.
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether bash would look {@code name} up as a program, given the oracle's builtins. */
  boolean reachesCommandLookup(String name) {
    return !builtins.contains(name) && name.indexOf('/') < 0 && !HANDLER.equals(name);
  }
}
