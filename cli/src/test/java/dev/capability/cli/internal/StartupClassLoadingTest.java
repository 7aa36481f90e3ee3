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
 * Git, Docker or bytecode library; reading a policy loads Jackson's parser but not its object
 * mapper. The same run with {@code --json} does load Jackson, which shows the log is read right.
 * With the static class data archive the launchers train (docs/cli.md, "Start-up"), splitting a
 * string loads no class of the class path from a jar.
 */
class StartupClassLoadingTest {
  private static final List<String> HEAVY = List.of("com.fasterxml.jackson.", "org.eclipse.jgit.", "com.github.dockerjava.", "org.objectweb.asm.");
  private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
  /** The launchers' options for a short command that decide what an archive holds and fits. */
  private static final List<String> SHORT_COMMAND_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseG1GC", "-Xss512k", "-Xmx128m", "-Xmn4m");

  @TempDir Path tmp;

  /** The classes the CLI loaded for {@code args}, after checking it printed {@code expected} and exited 0. */
  private List<String> loadedClasses(String expected, String... args) throws Exception {
    return loadedClasses(0, expected, args);
  }

  /** The classes the CLI loaded for {@code args}, after checking it printed {@code expected} and exited {@code exit}. */
  private List<String> loadedClasses(int exit, String expected, String... args) throws Exception {
    return loadedClassesAndSources(List.of(), System.getProperty("java.class.path"), exit, expected, args).stream()
        .map(line -> line.split(" ")[0])
        .toList();
  }

  /**
   * The classes the CLI loaded for {@code args} with the JVM options {@code options} and class
   * path {@code classPath}, each as "NAME source: SOURCE", after checking it printed {@code
   * expected} and exited {@code exit}.
   */
  private List<String> loadedClassesAndSources(List<String> options, String classPath, int exit, String expected, String... args)
      throws Exception {
    Path log = tmp.resolve("classes-" + args.length + "-" + options.size() + ".log");
    List<String> argv = new ArrayList<>(List.of(JAVA));
    argv.addAll(options);
    argv.addAll(List.of("-Xlog:class+load=info:file=" + log, "-cp", classPath, "dev.capability.cli.Main"));
    argv.addAll(List.of(args));
    String out = run(argv, exit);
    assertThat(out).isEqualTo(expected);
    // A line of the log: "[0.012s][info][class,load] java.lang.Object source: shared objects file".
    return Files.readAllLines(log).stream()
        .filter(line -> line.contains("[class,load] "))
        .map(line -> line.substring(line.indexOf("[class,load] ") + "[class,load] ".length()))
        .toList();
  }

  /** Runs {@code argv} with only PATH in its environment; returns what it printed on stdout and stderr, after checking it exited 0. */
  private static String run(List<String> argv) throws Exception {
    return run(argv, 0);
  }

  /** {@link #run(List)}, checking it exited {@code exit}. */
  private static String run(List<String> argv, int exit) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(argv);
    builder.environment().clear();
    builder.environment().putAll(Map.of("PATH", System.getenv("PATH")));
    Process process = builder.redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as(out).isEqualTo(exit);
    return out;
  }

  private static List<String> heavy(List<String> classes) {
    return classes.stream().filter(c -> HEAVY.stream().anyMatch(c::startsWith)).toList();
  }

  @Test
  void parseLoadsNoJsonGitDockerOrBytecodeLibrary() throws Exception {
    List<String> classes = loadedClasses("\"ls\"\n\"-l\"\n", "parse", "ls -l");

    assertThat(classes).contains("dev.capability.cli.internal.ParseCommand");
    assertThat(heavy(classes)).isEmpty();
    // The verifier of CapabilityCli's methods may load three of picocli's interfaces, nothing more.
    assertThat(classes).as("the command line is read without picocli").doesNotContain("picocli.CommandLine")
        .noneMatch(c -> c.startsWith("picocli.CommandLine$Model") || c.startsWith("picocli.CommandLine$Interpreter"));
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

  /**
   * The launchers' training, done here as they do it: the training's class list, a static archive
   * written from it, and {@code parse} run with that archive. Every class {@code parse} loads from
   * the class path comes from the archive, none from a jar: a class the archive left out would
   * have the JVM open every jar on the class path before its own to find it. Nor is a jar opened
   * for anything else: a look-up of a class that is nowhere would open every jar, and the JDK's
   * class path loader, asked to, says on stderr which jar it opens ("Opening file:...").
   */
  @Test
  void parseWithTheTrainedStaticArchiveLoadsNoClassFromAJarAndOpensNoJar() throws Exception {
    String classPath = JarredClassPath.of(tmp);
    Path classList = tmp.resolve("parse.classes");
    Path archive = tmp.resolve("parse.jsa");
    List<String> train = new ArrayList<>(List.of(JAVA));
    train.addAll(SHORT_COMMAND_OPTIONS);
    train.addAll(List.of("-Xshare:off", "-XX:DumpLoadedClassList=" + classList, "-cp", classPath, ClassDataTraining.class.getName(), "parse"));
    run(train);
    List<String> dump = new ArrayList<>(List.of(JAVA));
    dump.addAll(SHORT_COMMAND_OPTIONS);
    dump.addAll(List.of("-Xshare:dump", "-XX:SharedClassListFile=" + classList, "-XX:SharedArchiveFile=" + archive, "-cp", classPath));
    run(dump);
    List<String> options = new ArrayList<>(SHORT_COMMAND_OPTIONS);
    options.addAll(List.of("-Xshare:auto", "-XX:SharedArchiveFile=" + archive, "-Dsun.misc.URLClassPath.debug=true"));

    // The output is stdout and stderr: an "Opening file:..." line would be in it.
    List<String> classes = loadedClassesAndSources(options, classPath, 0, "\"ls\"\n\"-l\"\n", "parse", "ls -l");

    assertThat(classes).as("the CLI comes from the archive").contains(
        "dev.capability.cli.Main source: shared objects file",
        "dev.capability.cli.internal.ShortCommandLine source: shared objects file",
        "dev.capability.cli.internal.ParseCommand source: shared objects file");
    assertThat(classes).as("classes loaded from a jar").noneMatch(line -> line.contains(" source: file:"));
  }
}
