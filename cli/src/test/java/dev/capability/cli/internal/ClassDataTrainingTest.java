package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.testing.HostPrograms;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The training commands take the path the user's command takes (an archive trained on an error
 * path would hold the wrong classes): {@code check}'s reach an allowed decision, the backend
 * chosen from the training's own probe records, with no process started but the JVM, under
 * {@code strace}; and the training leaves nothing behind and names no file of the user's.
 */
class ClassDataTrainingTest {
  private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
  private static final Pattern EXECVE = Pattern.compile("execve\\(\"([^\"]*)\"");

  @TempDir Path tmp;

  private ClassDataTraining.Workspace workspace(String command) throws Exception {
    Path home = Files.createDirectory(tmp.resolve("home"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    return ClassDataTraining.Workspace.create(home, command);
  }

  @ParameterizedTest
  @CsvSource({"parse, 0", "help, 0", "completion, 0", "policy, 0"})
  void eachTrainingCommandRunsToItsOrdinaryOutcome(String command, int exitCode) throws Exception {
    ClassDataTraining.Workspace workspace = workspace(command);

    for (List<String> commandLine : ClassDataTraining.commandLines(command, workspace.repository())) {
      assertThat(commandLine.get(0)).isEqualTo(command);
      assertThat(workspace.run(commandLine)).as(commandLine.toString()).isEqualTo(exitCode);
    }
    try (Stream<Path> files = Files.list(workspace.home())) {
      assertThat(files).as("only check gets a repository and backend records").containsExactly(workspace.home().resolve("capability"));
    }
  }

  @Test
  void checkTrainsARefusalAndAnAllowedGitStatusInItsOwnRepositoryWithoutALedger() throws Exception {
    ClassDataTraining.Workspace workspace = workspace("check");

    List<List<String>> commandLines = ClassDataTraining.commandLines("check", workspace.repository());
    List<Integer> exits = commandLines.stream().map(workspace::run).toList();

    assertThat(commandLines).allSatisfy(commandLine -> assertThat(commandLine).startsWith("check").containsSequence(
        "--no-ledger", "--repo", workspace.repository().toString()));
    assertThat(commandLines).extracting(commandLine -> commandLine.subList(commandLine.indexOf("--"), commandLine.size())).containsExactly(
        List.of("--", "rm", "-rf", "/"), List.of("--", "rm", "-rf", "/"), List.of("--", "git", "status"), List.of("--", "git", "status"));
    assertThat(exits).containsExactly(ExitCodes.DENIED, ExitCodes.DENIED, ExitCodes.OK, ExitCodes.OK);
    assertThat(workspace.repository().resolve(".capability")).as("no ledger").doesNotExist();
  }

  /**
   * The allowed decision names a backend chosen from the training's records; with no record (the
   * cache directory removed), the backends are unavailable rather than probed, so the same command
   * is refused for want of a sandbox: the records are what answered.
   */
  @Test
  void theAllowedDecisionsBackendComesFromTheTrainingsRecordsAndNothingIsProbedWithoutThem() throws Exception {
    ClassDataTraining.Workspace workspace = workspace("check");
    List<String> allowed = List.of("check", "--no-ledger", "--repo", workspace.repository().toString(), "--", "git", "status");

    String answered = runCapturing(workspace, allowed);
    try (Stream<Path> files = Files.walk(workspace.home().resolve("cache"))) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
    // Only a live probe writes the cache again.
    String unrecorded = runCapturing(workspace, allowed);

    assertThat(answered).matches("ALLOW /\\S+/git via bwrap\n");
    assertThat(unrecorded).startsWith("DENY ISOLATION_UNAVAILABLE").contains("not probed: the class data training probes no backend");
    assertThat(workspace.home().resolve("cache/capability/backend-probes")).as("nothing was probed, so nothing was kept").doesNotExist();
  }

  private static String runCapturing(ClassDataTraining.Workspace workspace, List<String> commandLine) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    CapabilityCli cli = new CapabilityCli(InputStream.nullInputStream(), print, print, workspace.environment(), Set.of());
    CachedBackendProvider.withoutLiveProbes(() -> cli.run(commandLine.toArray(String[]::new)));
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * The training of {@code check} as the launchers run it, in a JVM of its own, under {@code strace
   * -f}: the only program it executes is the JVM itself (no bwrap, docker, setsid, prlimit or git,
   * not even tried), no system call names a file of the user's home, cache, configuration or
   * working directory (here a Git repository of the user's), which are left as they were, and its
   * class list holds the classes only an allowed decision loads (the Git neutralization, the
   * backend choice from the probe cache).
   */
  @Test
  void theCheckTrainingStartsNoProcessButItsJvmAndListsTheAllowedDecisionsClasses() throws Exception {
    Optional<Path> strace = HostPrograms.lookup("strace");
    Assumptions.assumeTrue(strace.isPresent(), "strace is not installed in /usr/bin or /bin: the training's processes cannot be traced");
    Path probeTrace = tmp.resolve("probe.strace");
    Assumptions.assumeTrue(run(List.of(strace.get().toString(), "-f", "-e", "trace=execve", "-o", probeTrace.toString(), "/bin/true"), Map.of(), tmp) == 0,
        "strace cannot trace here (ptrace is not permitted)");
    Path user = Files.createDirectory(tmp.resolve("user"));
    Path userRepository = Files.createDirectories(user.resolve("project"));
    Files.createDirectories(userRepository.resolve(".git"));
    Path trace = tmp.resolve("training.strace");
    Path classList = tmp.resolve("check.classes");
    List<String> argv = List.of(strace.get().toString(), "-f", "-e", "trace=execve,%file", "-o", trace.toString(),
        JAVA, "-XX:+DisableAttachMechanism", "-Xshare:off", "-Xlog:disable", "-XX:DumpLoadedClassList=" + classList,
        "-cp", JarredClassPath.of(tmp), ClassDataTraining.class.getName(), "check");

    int exit = run(argv, Map.of("HOME", user.toString(), "XDG_CACHE_HOME", user.resolve(".cache").toString(),
        "XDG_CONFIG_HOME", user.resolve(".config").toString()), userRepository);

    assertThat(exit).isZero();
    List<String> executed = new ArrayList<>();
    List<String> userFiles = new ArrayList<>();
    for (String line : Files.readAllLines(trace)) {
      Matcher execve = EXECVE.matcher(line);
      if (execve.find()) {
        executed.add(execve.group(1));
      }
      // getcwd only reports the directory's name: the JVM reads it once for user.dir.
      if ((line.contains("\"" + user + "\"") || line.contains("\"" + user + "/")) && !line.contains(" getcwd(")) {
        userFiles.add(line);
      }
    }
    assertThat(executed).as("the programs executed or tried, from " + trace).isNotEmpty().containsOnly(JAVA);
    assertThat(userFiles).as("system calls that named a file of the user's").isEmpty();
    List<String> classes = Files.readAllLines(classList).stream().map(line -> line.split(" ")[0].replace('/', '.')).toList();
    assertThat(classes).as("the allowed decision's classes").contains(
        "dev.capability.kernel.core.internal.authority.GitNeutralizer",
        "dev.capability.kernel.core.internal.backend.BackendRegistry",
        "dev.capability.cli.internal.ProbedBackend");
    try (Stream<Path> files = Files.walk(user)) {
      assertThat(files).as("the user's files").containsExactlyInAnyOrder(user, userRepository, userRepository.resolve(".git"));
    }
  }

  /** Runs {@code argv} in {@code directory} with PATH and {@code environment}; returns its exit code, its output discarded. */
  private static int run(List<String> argv, Map<String, String> environment, Path directory) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    builder.environment().put("PATH", System.getenv("PATH"));
    builder.environment().putAll(environment);
    Process process = builder.start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
    return process.exitValue();
  }

  @Test
  void theTrainingRemovesItsTemporaryDirectory() throws Exception {
    Path tmpdir = Path.of(System.getProperty("java.io.tmpdir"));
    List<Path> before;
    try (var listing = Files.list(tmpdir)) {
      before = listing.filter(path -> path.getFileName().toString().startsWith("capability-cds-training")).toList();
    }

    ClassDataTraining.main(new String[] {"check"});

    try (var listing = Files.list(tmpdir)) {
      assertThat(listing.filter(path -> path.getFileName().toString().startsWith("capability-cds-training"))).containsExactlyInAnyOrderElementsOf(before);
    }
  }

  @Test
  void refusesACommandItHasNoTrainingFor() {
    assertThatThrownBy(() -> ClassDataTraining.commandLines("exec", Path.of("/repository"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exec");
  }
}
