package dev.capability.workflow.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which commands are recognisable deterministic checks (a test, lint, type-check, build or
 * syntax-validation tool), which are no-ops, and which only print or copy. Judged on the argv,
 * never by running anything; a contract adds the project's own commands to the recognised ones.
 */
final class EvidenceTools {
  private EvidenceTools() {}

  /** Tools that are a check whatever their arguments. */
  private static final Set<String> CHECKS = Set.of(
      "pytest", "py.test", "tsc", "eslint", "ruff", "mypy", "pyright", "javac", "flake8", "pylint", "shellcheck", "tox", "nox",
      "jest", "vitest", "mocha", "rspec", "phpunit", "ctest", "clippy-driver", "rustc", "golangci-lint", "staticcheck", "ktlint",
      "checkstyle", "hadolint", "yamllint", "xmllint", "jsonlint", "markdownlint", "rubocop", "gofmt", "black", "prettier",
      "biome", "deno", "bats", "busted", "prove", "unittest", "junit");
  /** Tools that are a check when one of the listed words is among their arguments. */
  private static final Map<String, Set<String>> CHECK_SUBCOMMANDS = Map.ofEntries(
      Map.entry("mvn", Set.of("test", "verify", "compile", "test-compile", "package", "install", "validate", "checkstyle:check", "spotless:check")),
      Map.entry("mvnw", Set.of("test", "verify", "compile", "test-compile", "package", "install", "validate", "checkstyle:check", "spotless:check")),
      Map.entry("gradle", Set.of("test", "check", "build", "compileJava", "assemble", "lint")),
      Map.entry("gradlew", Set.of("test", "check", "build", "compileJava", "assemble", "lint")),
      Map.entry("npm", Set.of("test", "lint", "build", "typecheck", "type-check", "check")),
      Map.entry("pnpm", Set.of("test", "lint", "build", "typecheck", "type-check", "check")),
      Map.entry("yarn", Set.of("test", "lint", "build", "typecheck", "type-check", "check")),
      Map.entry("npx", Set.of("tsc", "eslint", "jest", "vitest", "mocha", "prettier", "biome")),
      Map.entry("go", Set.of("test", "vet", "build")),
      Map.entry("cargo", Set.of("test", "clippy", "check", "build", "nextest")),
      Map.entry("make", Set.of("test", "check", "lint", "build", "all", "verify")),
      Map.entry("dotnet", Set.of("test", "build")),
      Map.entry("bundle", Set.of("rspec", "rake")),
      Map.entry("swift", Set.of("test", "build")),
      Map.entry("python", Set.of("pytest", "unittest", "py_compile", "compileall", "mypy", "ruff", "json.tool")),
      Map.entry("python3", Set.of("pytest", "unittest", "py_compile", "compileall", "mypy", "ruff", "json.tool")),
      Map.entry("java", Set.of("org.junit.platform.console.ConsoleLauncher", "--scan-class-path", "-jar")));
  /** Tools that only print, copy or describe: passing proves nothing about the code. */
  private static final Set<String> WEAK = Set.of(
      "echo", "printf", "cat", "head", "tail", "ls", "pwd", "date", "env", "printenv", "whoami", "wc", "stat", "sleep", "yes", "tee",
      "basename", "dirname", "uname", "id", "hostname");
  /** Commands that succeed whatever the code is. */
  private static final Set<String> NO_OPS = Set.of("true", ":");

  static boolean isNoOp(List<String> argv) {
    return NO_OPS.contains(name(argv));
  }

  static boolean isWeak(List<String> argv) {
    return WEAK.contains(name(argv));
  }

  static boolean isRecognisedCheck(List<String> argv) {
    String name = name(argv);
    if (CHECKS.contains(name)) {
      return true;
    }
    Set<String> words = CHECK_SUBCOMMANDS.get(name);
    if (words == null) {
      return false;
    }
    for (String argument : argv.subList(1, argv.size())) {
      if (words.contains(argument)) {
        return true;
      }
    }
    return false;
  }

  /** The executable's file name: {@code ./mvnw} and {@code /usr/bin/mvn} are {@code mvnw} and {@code mvn}. */
  static String name(List<String> argv) {
    String first = argv.get(0);
    return first.substring(first.lastIndexOf('/') + 1);
  }
}
