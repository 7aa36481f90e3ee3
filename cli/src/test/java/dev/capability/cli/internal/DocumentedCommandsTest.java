package dev.capability.cli.internal;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.docker.DockerBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.core.CommandStrings;
import dev.capability.testing.Ownership;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs the documentation. Every {@code sh} block of README.md and docs/ is executed line by line,
 * verbatim, in a fresh Git repository holding a copy of {@code examples/}, through the real CLI in
 * a child JVM (other lines run as plain argv, never through a shell); each line must end with the
 * exit code its {@code # exit N} comment names, or 0. Every other mention of a {@code capability}
 * command must name commands and options the CLI has. So the docs cannot drift from the tool.
 */
class DocumentedCommandsTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final BackendGate DOCKER = BackendGate.of(new DockerBackendProvider(), BackendConfig.defaults());
  /** Commands that launch a sandbox; their examples need a sandbox backend. */
  private static final Set<String> SANDBOXED = Set.of("run", "exec");
  private static final long TIMEOUT_MINUTES = 10;

  @TempDir static Path scratch;

  @AfterAll
  static void close() {
    BWRAP.close();
    DOCKER.close();
  }

  static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !(Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs")))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      fail("no README.md with docs/ beside it above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  @TestFactory
  Stream<DynamicNode> everyShExampleRunsVerbatim() throws IOException {
    List<DynamicNode> pages = new ArrayList<>();
    for (Path page : DocumentedCommands.pages(root())) {
      List<DocumentedCommands.Example> examples = DocumentedCommands.examples(page);
      if (examples.isEmpty()) {
        continue;
      }
      Path workspace = scratch.resolve(root().relativize(page).toString().replace('/', '_'));
      List<DynamicTest> tests = new ArrayList<>();
      for (DocumentedCommands.Example example : examples) {
        tests.add(DynamicTest.dynamicTest(example.toString(), () -> runExample(workspace, example)));
      }
      pages.add(DynamicContainer.dynamicContainer(root().relativize(page).toString(), tests));
    }
    assertThat(pages).as("README.md has runnable sh examples").isNotEmpty();
    return pages.stream();
  }

  @TestFactory
  Stream<DynamicTest> everyReferenceNamesCommandsAndOptionsTheCliHas() throws IOException {
    CommandLine cli = CliRunner.commandLine();
    List<DynamicTest> tests = new ArrayList<>();
    for (Path page : DocumentedCommands.pages(root())) {
      for (DocumentedCommands.Reference reference : DocumentedCommands.references(page)) {
        tests.add(DynamicTest.dynamicTest(reference.toString(), () -> checkReference(cli, reference)));
      }
    }
    assertThat(tests).isNotEmpty();
    return tests.stream();
  }

  @Test
  void aReferenceToAnOptionTheCliLacksFailsAndOneToAnOptionItHasPasses() {
    CommandLine cli = CliRunner.commandLine();
    Path page = Path.of("page.md");

    checkReference(cli, new DocumentedCommands.Reference(page, 1, "capability ledger list|verify [--repo DIR] [--json]"));
    assertThatThrownBy(() -> checkReference(cli, new DocumentedCommands.Reference(page, 1, "bin/capability exec --no-such-option -- ls")))
        .isInstanceOf(AssertionError.class).hasMessageContaining("--no-such-option");
    assertThatThrownBy(() -> checkReference(cli, new DocumentedCommands.Reference(page, 1, "capability ledger list|verify --since 1d")))
        .isInstanceOf(AssertionError.class).hasMessageContaining("--since");
  }

  private static void checkReference(CommandLine cli, DocumentedCommands.Reference reference) {
    List<String> words = reference.words();
    List<CommandSpec> commands = List.of(cli.getCommandSpec());
    int i = 1;
    for (; i < words.size(); i++) {
      List<CommandSpec> next = subcommands(commands, words.get(i));
      if (next.isEmpty()) {
        break;
      }
      commands = next;
    }
    for (; i < words.size(); i++) {
      String word = words.get(i).replaceAll("^[\\[(]+|[\\])]+$", "");
      if (word.equals("--")) {
        break;
      }
      if (!word.startsWith("-") || word.equals("-")) {
        continue;
      }
      for (String option : word.split("\\|")) {
        String name = option.replaceAll("[=\\[].*$", "");
        assertThat(commands.stream().allMatch(c -> c.findOption(name) != null))
            .as("%s: option %s of 'capability %s'", reference, name,
                commands.stream().map(CommandSpec::qualifiedName).toList())
            .isTrue();
      }
    }
  }

  /** The subcommands named by {@code word}, which may list alternatives as {@code a|b}. */
  private static List<CommandSpec> subcommands(List<CommandSpec> parents, String word) {
    List<CommandSpec> found = new ArrayList<>();
    for (String alternative : word.split("\\|")) {
      for (CommandSpec parent : parents) {
        CommandLine sub = parent.subcommands().get(alternative);
        if (sub != null) {
          found.add(sub.getCommandSpec());
        }
      }
    }
    return found;
  }

  private static void runExample(Path workspace, DocumentedCommands.Example example) throws Exception {
    List<String> argv;
    try {
      argv = CommandStrings.split(example.text());
    } catch (RuntimeException e) {
      throw new AssertionError(example + ": documented commands must be plain argv without shell syntax: " + e.getMessage(), e);
    }
    if (!Files.exists(workspace)) {
      createWorkspace(workspace);
    }
    List<String> launched = new ArrayList<>();
    if (example.isCapability()) {
      String command = argv.size() > 1 ? argv.get(1) : "";
      if (SANDBOXED.contains(command)) {
        BWRAP.backend();
      } else if (command.equals("image")) {
        DOCKER.backend();
      }
      launched.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      launched.add("-XX:+DisableAttachMechanism");
      launched.add("-cp");
      launched.add(System.getProperty("java.class.path"));
      launched.add("dev.capability.cli.Main");
      launched.addAll(argv.subList(1, argv.size()));
    } else {
      launched.addAll(argv);
    }
    ProcessBuilder builder = new ProcessBuilder(launched).directory(workspace.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    builder.environment().clear();
    builder.environment().putAll(environment(workspace));
    Path out = Files.createTempFile(scratch, "out", ".txt");
    Path err = Files.createTempFile(scratch, "err", ".txt");
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process process = builder.start();
    if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail(example + ": did not end within " + TIMEOUT_MINUTES + " minutes");
    }
    int expected = example.expectedExit().orElse(0);
    assertThat(process.exitValue())
        .as("%s\nstdout:\n%s\nstderr:\n%s", example, Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8))
        .isEqualTo(expected);
  }

  /** What a user's shell would pass: their PATH and locale, a home of their own, nothing else. */
  private static Map<String, String> environment(Path workspace) throws IOException {
    Map<String, String> environment = new LinkedHashMap<>();
    for (String name : List.of("PATH", "LANG", "JAVA_HOME", "DOCKER_HOST")) {
      String value = System.getenv(name);
      if (value != null) {
        environment.put(name, value);
      }
    }
    Path home = workspace.resolveSibling(workspace.getFileName() + ".home");
    Files.createDirectories(home);
    environment.put("HOME", home.toString());
    return environment;
  }

  /** A Git repository holding a copy of examples/ and docs/, readable by the sandbox's uid. */
  private static void createWorkspace(Path workspace) throws IOException, InterruptedException {
    Files.createDirectories(workspace);
    copyTree(root().resolve("examples"), workspace.resolve("examples"));
    copyTree(root().resolve("docs"), workspace.resolve("docs"));
    git(workspace, "init", "-q");
    git(workspace, "add", "-A");
    git(workspace, "-c", "user.name=docs", "-c", "user.email=docs@example.com", "commit", "-q", "-m", "docs");
    // As root the sandbox runs as another uid, which must be able to enter and read the repository.
    Ownership.readableByEveryone(scratch);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        if (dir.getFileName().toString().equals("target")) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        Files.createDirectories(to.resolve(from.relativize(dir).toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        try {
          Files.copy(file, to.resolve(from.relativize(file).toString()));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
