package dev.capability.kernel.core.internal.policy;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The sed-script validator never accepts a script that runs a program or touches a file. Two
 * generators: commands composed from a grammar, where a dangerous command in any position and
 * spelling must be refused; and token soup judged by real GNU sed, whose {@code --sandbox} mode
 * rejects exactly the {@code e}, {@code r} and {@code w} families.
 */
class SedScriptProperties {

  private static final List<String> ADDRESSES = List.of(
      "", "1", "$", "1,5", "2,$", "/x/", "/x/I", "\\|x|", "\\#a/b#", "/a\\/b/", "/[ab]/", "0~3", "/x/,+2", "/x/,~4", "1 , 3");
  private static final List<String> NEGATIONS = List.of("", "!", " ! ", "! ");
  private static final List<String> SAFE = List.of(
      "p", "P", "=", "l", "l 5", "q", "Q 3", "d", "D", "n", "N", "g", "G", "h", "H", "x", "z",
      "s/x/y/", "s/x/y/g", "s|a/b|c|p", "s/a\\/b/c/2", "s#x#y#gI", "s/[ab]/x/ g", "s/[]x]/&&/", "s/[[:alpha:]]/\\U&/",
      "y/ab/cd/", "y|a/|b\\||");
  private static final List<String> DANGEROUS = List.of(
      "e", "e id", "e  sh -c id", "r f", "r/etc/passwd", "R f", "w f", "w/tmp/x", "W f",
      "s/x/y/e", "s/x/y/ge", "s/x/y/2e", "s/x/y/g e", "s/x/y/pe", "s|x|y|e", "s#x#y#e", "s/a\\/b/c/e", "s/[a]/b/e",
      "s/x/y\\/z/e", "s/x/y/w f", "s/x/y/gw f", "s/x/y/ w f", "s|x|y|w /tmp/x", "s,x,y,2w f", "s/x/\\/e/e");
  private static final List<String> SEPARATORS = List.of(";", " ; ", "; ", " ;", ";;");

  @Property(tries = 2000)
  void aScriptWithAnExecutingOrWritingCommandIsNeverAccepted(
      @ForAll("commands") List<String> before, @ForAll("dangerous") String dangerous, @ForAll("commands") List<String> after,
      @ForAll("separators") String separator, @ForAll boolean inBlock) {
    String script = join(before, separator) + separator + (inBlock ? "1{" + dangerous + "}" : dangerous) + separator
        + join(after, separator);

    assertThat(SedScript.problem(script)).as(script).isPresent();
  }

  @Property(tries = 1000)
  void aScriptOfSelectingAndPrintingCommandsIsAccepted(
      @ForAll("commands") List<String> commands, @ForAll("separators") String separator, @ForAll boolean inBlock) {
    String script = inBlock ? "/a/,/b/{" + join(commands, separator) + "}" : join(commands, separator);

    assertThat(SedScript.problem(script)).as(script).isEmpty();
  }

  @Property(tries = 3000)
  void gnuSedInSandboxModeFindsNoExecutingOrWritingCommandInAnAcceptedScript(@ForAll("soup") String script) {
    if (SedScript.problem(script).isPresent()) {
      return;
    }
    String stderr = gnuSedSandbox(script);

    assertThat(stderr).as(script).doesNotContain("disabled in sandbox mode");
  }

  private static String join(List<String> commands, String separator) {
    return String.join(separator, commands);
  }

  @Provide
  Arbitrary<List<String>> commands() {
    return Combinators.combine(Arbitraries.of(ADDRESSES), Arbitraries.of(NEGATIONS), Arbitraries.of(SAFE))
        .as((address, negation, command) -> address + (address.isEmpty() ? negation.strip() : negation) + command)
        .list().ofMaxSize(4);
  }

  @Provide
  Arbitrary<String> dangerous() {
    return Combinators.combine(Arbitraries.of(ADDRESSES), Arbitraries.of(NEGATIONS), Arbitraries.of(DANGEROUS))
        .as((address, negation, command) -> address + (address.isEmpty() ? negation.strip() : negation) + command);
  }

  @Provide
  Arbitrary<String> separators() {
    return Arbitraries.of(SEPARATORS);
  }

  /** Sequences of the characters and fragments that decide where a sed command ends. */
  @Provide
  Arbitrary<String> soup() {
    return Arbitraries.of(
            "p", "e", "e id", "w f", "r f", "R f", "W f", "s", "y", "/", "|", "#", ",", ":", "\\", "[", "]", "^", ".", "=", "!",
            "{", "}", ";", " ", "1", "$", "~", "+", "g", "2", "I", "M", "x", "n", "q", "[:alpha:]", "s/x/y/", "s|a|b|")
        .list().ofMinSize(1).ofMaxSize(10)
        .map(parts -> parts.stream().collect(Collectors.joining()));
  }

  /** GNU sed's complaint about {@code script} in sandbox mode, reading an empty file; empty when it has none. */
  private static String gnuSedSandbox(String script) {
    try {
      Path empty = Files.createTempFile("sed-oracle", ".txt");
      try {
        Process sed = new ProcessBuilder(gnuSed(), "--sandbox", "-n", "-e", script, empty.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
        sed.getOutputStream().close();
        String stderr = new String(sed.getErrorStream().readAllBytes(), UTF_8);
        if (!sed.waitFor(60, TimeUnit.SECONDS)) {
          sed.destroyForcibly();
          throw new AssertionError("GNU sed did not finish on " + script);
        }
        return stderr;
      } finally {
        Files.delete(empty);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static String gnuSedPath;

  private static synchronized String gnuSed() throws IOException, InterruptedException {
    if (gnuSedPath == null) {
      for (String candidate : List.of("/usr/bin/sed", "/bin/sed")) {
        if (Files.isExecutable(Path.of(candidate))) {
          Process version = new ProcessBuilder(candidate, "--version").redirectErrorStream(true).start();
          String text = new String(version.getInputStream().readAllBytes(), UTF_8);
          version.waitFor();
          if (text.contains("GNU sed")) {
            gnuSedPath = candidate;
            break;
          }
        }
      }
      if (gnuSedPath == null) {
        throw new AssertionError("GNU sed (/usr/bin/sed or /bin/sed) is required: it is the oracle for sed scripts");
      }
    }
    return gnuSedPath;
  }
}
