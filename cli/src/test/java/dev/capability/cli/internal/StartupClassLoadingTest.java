package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real CLI in a JVM of its own, its class loading logged: splitting a string loads no JSON,
 * Git, Docker or bytecode library; reading a policy loads Jackson's parser but not its object mapper. The same run with {@code --json} does load Jackson, which shows
 * the log is read right.
 */
class StartupClassLoadingTest {
  private static final List<String> HEAVY = List.of("com.fasterxml.jackson.", "org.eclipse.jgit.", "com.github.dockerjava.", "org.objectweb.asm.");

  @TempDir Path tmp;

  /** The classes the CLI loaded for {@code args}, after checking it printed {@code expected} and exited 0. */
  private List<String> loadedClasses(String expected, String... args) throws Exception {
    return loadedClasses(0, expected, args);
  }

  /** The classes the CLI loaded for {@code args}, after checking it printed {@code expected} and exited {@code exit}. */
  private List<String> loadedClasses(int exit, String expected, String... args) throws Exception {
    Path log = tmp.resolve("classes-" + args.length + ".log");
    List<String> argv = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xlog:class+load=info:file=" + log, "-cp", System.getProperty("java.class.path"), "dev.capability.cli.Main"));
    argv.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(argv);
    builder.environment().clear();
    builder.environment().putAll(Map.of("PATH", System.getenv("PATH")));
    Process cli = builder.redirectErrorStream(true).start();
    String out = new String(cli.getInputStream().readAllBytes());
    assertThat(cli.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(cli.exitValue()).as(out).isEqualTo(exit);
    assertThat(out).isEqualTo(expected);
    // A line of the log: "[0.012s][info][class,load] java.lang.Object source: shared objects file".
    return Files.readAllLines(log).stream()
        .filter(line -> line.contains("[class,load] "))
        .map(line -> line.substring(line.indexOf("[class,load] ") + "[class,load] ".length()).split(" ")[0])
        .toList();
  }

  private static List<String> heavy(List<String> classes) {
    return classes.stream().filter(c -> HEAVY.stream().anyMatch(c::startsWith)).toList();
  }

  @Test
  void parseLoadsNoJsonGitDockerOrBytecodeLibrary() throws Exception {
    List<String> classes = loadedClasses("\"ls\"\n\"-l\"\n", "parse", "ls -l");

    assertThat(classes).contains("dev.capability.cli.internal.ParseCommand");
    assertThat(heavy(classes)).isEmpty();
    assertThat(classes).as("the other subcommands are not built").doesNotContain(
        "dev.capability.cli.internal.ExecCommand", "dev.capability.cli.internal.LedgerCommand", "dev.capability.cli.internal.AcquireCommand");
  }

  @Test
  void checkReadsThePolicyWithJacksonsParserAloneNotItsObjectMapper() throws Exception {
    Path operator = Files.createDirectory(tmp.resolve("operator"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path policy = Files.writeString(operator.resolve("policy.json"), "{\"version\": 1, \"network\": \"none\", \"executables\": {}}");
    Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-------"));

    List<String> classes = loadedClasses(ExitCodes.DENIED, "DENY EXECUTABLE_NOT_ALLOWED (operator executables, argv[0]): no executable rule"
        + " allows \"ls\" (bare-name rules match only a name without path separator or extension)\n", "check", "--policy", policy.toString(), "--", "ls");

    assertThat(classes).as("the policy was read").contains("com.fasterxml.jackson.core.JsonFactory");
    assertThat(classes).noneMatch(c -> c.startsWith("com.fasterxml.jackson.databind."));
  }

  @Test
  void parseWithJsonLoadsJacksonWhichShowsTheLogIsReadRight() throws Exception {
    List<String> classes = loadedClasses("{\"argv\":[\"ls\",\"-l\"]}\n", "parse", "--json", "ls -l");

    assertThat(heavy(classes)).anyMatch(c -> c.startsWith("com.fasterxml.jackson.databind."));
  }
}
