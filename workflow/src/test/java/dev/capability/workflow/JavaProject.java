package dev.capability.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A tiny shell-free Java project in a real Git repository, made by the test: a class, a test
 * class whose {@code main} exits 1 when the class is wrong, built with {@code javac} and run with
 * {@code java}. No Maven: the sandbox has no network and no local repository.
 */
final class JavaProject {
  static final String CALC = "public class Calc {\n  static int add(int a, int b) {\n    return a + b;\n  }\n}\n";
  static final String BROKEN_CALC = "public class Calc {\n  static int add(int a, int b) {\n    return a - b;\n  }\n}\n";
  static final String CALC_TEST = "public class CalcTest {\n  public static void main(String[] args) {\n"
      + "    if (Calc.add(2, 3) != 5) {\n      System.err.println(\"add(2, 3) was \" + Calc.add(2, 3) + \", expected 5\");\n"
      + "      System.exit(1);\n    }\n    System.out.println(\"ok\");\n  }\n}\n";

  static final String COMPILE_MAIN = "javac -d target/classes src/main/java/Calc.java";
  static final String COMPILE_TEST = "javac -d target/test-classes -cp target/classes src/test/java/CalcTest.java";
  static final String RUN_TEST = "java -cp target/classes:target/test-classes CalcTest";

  private JavaProject() {}

  /** A repository at {@code directory} with one commit holding a README and a {@code .gitignore} for {@code target/}. */
  static Path create(Path directory, Path home) throws IOException {
    Files.createDirectories(directory);
    // The sandbox's uid must be able to write the scopes the kernel creates below the repository.
    Files.setAttribute(directory, "unix:mode", 01777);
    Files.writeString(directory.resolve("README.md"), "# calc\n");
    Files.writeString(directory.resolve(".gitignore"), "target/\n.capability/\n");
    git(directory, home, "init", "-q", "-b", "main");
    git(directory, home, "add", "README.md", ".gitignore");
    git(directory, home, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "first");
    return directory.toRealPath();
  }

  /** Writes {@code content} at {@code path}, making each missing directory writable by the sandbox's uid as the repository is. */
  static void write(Path repository, String path, String content) throws IOException {
    Path file = repository.resolve(path);
    for (Path directory = repository, rest = repository.relativize(file.getParent()); rest != null && !rest.toString().isEmpty(); ) {
      directory = directory.resolve(rest.getName(0));
      if (!Files.isDirectory(directory)) {
        Files.createDirectory(directory);
        Files.setAttribute(directory, "unix:mode", 01777);
      }
      rest = rest.getNameCount() > 1 ? rest.subpath(1, rest.getNameCount()) : null;
    }
    Files.writeString(file, content);
  }

  static void git(Path directory, Path home, String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of("git"));
    argv.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile()).redirectErrorStream(true);
    builder.environment().put("GIT_CONFIG_NOSYSTEM", "1");
    builder.environment().put("HOME", home.toString());
    Process process = builder.start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).as("git %s: %s", argv, output).isZero();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
