package dev.capability.workflow.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The language and role of the files a repository-relative path or minimatch glob names, read from
 * fixed tables (extensions, well-known file names, directory names), so that what reaches the
 * playbook is one of this class's own words and never a piece of the path. A glob whose files
 * could be of any language (or role) has none: it stands for any.
 */
public final class FileTraits {
  private FileTraits() {}

  /** The traits of a set of paths or globs: the union, or empty (any) as soon as one of them could be anything. */
  public record Traits(Set<String> languages, Set<String> roles) {}

  private static final Map<String, String> LANGUAGE_BY_EXTENSION = Map.ofEntries(
      Map.entry("java", "java"), Map.entry("kt", "kotlin"), Map.entry("kts", "kotlin"), Map.entry("scala", "scala"),
      Map.entry("groovy", "groovy"), Map.entry("gradle", "groovy"), Map.entry("py", "python"), Map.entry("js", "javascript"),
      Map.entry("mjs", "javascript"), Map.entry("cjs", "javascript"), Map.entry("jsx", "javascript"), Map.entry("ts", "typescript"),
      Map.entry("tsx", "typescript"), Map.entry("go", "go"), Map.entry("rs", "rust"), Map.entry("c", "c"), Map.entry("h", "c"),
      Map.entry("cc", "cpp"), Map.entry("cpp", "cpp"), Map.entry("cxx", "cpp"), Map.entry("hpp", "cpp"), Map.entry("hh", "cpp"),
      Map.entry("cs", "csharp"), Map.entry("rb", "ruby"), Map.entry("php", "php"), Map.entry("swift", "swift"),
      Map.entry("sh", "shell"), Map.entry("bash", "shell"), Map.entry("sql", "sql"), Map.entry("md", "markdown"),
      Map.entry("rst", "restructuredtext"), Map.entry("adoc", "asciidoc"), Map.entry("html", "html"), Map.entry("htm", "html"),
      Map.entry("css", "css"), Map.entry("scss", "css"), Map.entry("json", "json"), Map.entry("yml", "yaml"), Map.entry("yaml", "yaml"),
      Map.entry("toml", "toml"), Map.entry("xml", "xml"), Map.entry("properties", "properties"), Map.entry("ini", "ini"),
      Map.entry("proto", "protobuf"), Map.entry("tf", "terraform"));

  private static final Map<String, String> LANGUAGE_BY_NAME = Map.of("dockerfile", "docker", "makefile", "make", "jenkinsfile", "groovy");

  private static final Set<String> BUILD_FILES = Set.of("pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle",
      "settings.gradle.kts", "package.json", "package-lock.json", "yarn.lock", "cargo.toml", "cargo.lock", "go.mod", "go.sum",
      "makefile", "cmakelists.txt", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "gemfile", "gemfile.lock",
      "build.xml", "mvnw", "gradlew", "dockerfile");
  private static final Set<String> TEST_DIRECTORIES = Set.of("test", "tests", "__tests__", "spec", "specs", "testdata", "it");
  private static final Set<String> CI_DIRECTORIES = Set.of(".github", ".circleci", ".gitlab", ".buildkite");
  private static final Set<String> CI_FILES = Set.of(".gitlab-ci.yml", "jenkinsfile", ".travis.yml", "azure-pipelines.yml");
  private static final Set<String> DOCS_DIRECTORIES = Set.of("docs", "doc", "documentation");
  private static final Set<String> DOCS_LANGUAGES = Set.of("markdown", "restructuredtext", "asciidoc");
  private static final Set<String> OUTPUT_DIRECTORIES = Set.of("target", "build", "dist", "out", "node_modules", ".gradle");
  private static final Set<String> CONFIG_DIRECTORIES = Set.of("config", "conf", "resources", "etc");
  private static final Set<String> CONFIG_LANGUAGES = Set.of("json", "yaml", "toml", "properties", "ini", "xml");
  private static final Set<String> SOURCE_DIRECTORIES = Set.of("src", "lib", "main", "app", "pkg", "cmd", "internal");
  private static final Set<String> DATA_LANGUAGES = Set.of("json", "yaml", "toml", "properties", "ini", "xml", "html", "css", "markdown",
      "restructuredtext", "asciidoc");

  /** The traits of {@code pathsOrGlobs} together. */
  public static Traits of(Collection<String> pathsOrGlobs) {
    Set<String> languages = new TreeSet<>();
    Set<String> roles = new TreeSet<>();
    boolean anyLanguage = pathsOrGlobs.isEmpty();
    boolean anyRole = pathsOrGlobs.isEmpty();
    for (String pathOrGlob : pathsOrGlobs) {
      Optional<String> language = language(pathOrGlob);
      language.ifPresent(languages::add);
      anyLanguage |= language.isEmpty();
      Optional<String> role = role(pathOrGlob, language);
      role.ifPresent(roles::add);
      anyRole |= role.isEmpty();
    }
    return new Traits(anyLanguage ? Set.of() : Set.copyOf(languages), anyRole ? Set.of() : Set.copyOf(roles));
  }

  /** The language of the files {@code pathOrGlob} names, when its last segment fixes one. */
  static Optional<String> language(String pathOrGlob) {
    String name = lastSegment(pathOrGlob);
    Optional<String> byName = Optional.ofNullable(LANGUAGE_BY_NAME.get(name));
    if (byName.isPresent()) {
      return byName;
    }
    int dot = name.lastIndexOf('.');
    if (dot < 0) {
      return Optional.empty();
    }
    String extension = name.substring(dot + 1);
    // "*.{ts,tsx}" or "*.j*" could be of several languages: none is known.
    return isGlob(extension) ? Optional.empty() : Optional.ofNullable(LANGUAGE_BY_EXTENSION.get(extension));
  }

  /** The role of the files {@code pathOrGlob} names: build, ci, test, docs, output, config or source; empty when it could be any. */
  static Optional<String> role(String pathOrGlob, Optional<String> language) {
    String name = lastSegment(pathOrGlob);
    List<String> directories = directories(pathOrGlob);
    if (BUILD_FILES.contains(name)) {
      return Optional.of("build");
    }
    if (CI_FILES.contains(name) || directories.stream().anyMatch(CI_DIRECTORIES::contains)) {
      return Optional.of("ci");
    }
    if (directories.stream().anyMatch(OUTPUT_DIRECTORIES::contains)) {
      return Optional.of("output");
    }
    if (directories.stream().anyMatch(TEST_DIRECTORIES::contains) || isTestFileName(pathOrGlob)) {
      return Optional.of("test");
    }
    if (directories.stream().anyMatch(DOCS_DIRECTORIES::contains) || language.filter(DOCS_LANGUAGES::contains).isPresent()) {
      return Optional.of("docs");
    }
    if (directories.stream().anyMatch(CONFIG_DIRECTORIES::contains) || language.filter(CONFIG_LANGUAGES::contains).isPresent()) {
      return Optional.of("config");
    }
    if (directories.stream().anyMatch(SOURCE_DIRECTORIES::contains) || language.filter(l -> !DATA_LANGUAGES.contains(l)).isPresent()) {
      return Optional.of("source");
    }
    return Optional.empty();
  }

  /** {@code CalcTest.java}, {@code CalcTests.kt}, {@code CalcIT.java}, {@code test_calc.py}, {@code calc_test.go}, {@code calc.test.js}, {@code calc.spec.ts}. */
  private static boolean isTestFileName(String pathOrGlob) {
    int slash = pathOrGlob.lastIndexOf('/');
    String name = slash < 0 ? pathOrGlob : pathOrGlob.substring(slash + 1);
    int dot = name.indexOf('.');
    String stem = dot < 0 ? name : name.substring(0, dot);
    String lower = name.toLowerCase(Locale.ROOT);
    return stem.endsWith("Test") || stem.endsWith("Tests") || stem.endsWith("IT") || stem.endsWith("Spec") || stem.startsWith("test_")
        || stem.endsWith("_test") || lower.contains(".test.") || lower.contains(".spec.");
  }

  private static String lastSegment(String pathOrGlob) {
    String normalized = pathOrGlob.toLowerCase(Locale.ROOT);
    int slash = normalized.lastIndexOf('/');
    return slash < 0 ? normalized : normalized.substring(slash + 1);
  }

  /** The literal directory names of {@code pathOrGlob}; segments with glob syntax name no directory. */
  private static List<String> directories(String pathOrGlob) {
    String[] segments = pathOrGlob.toLowerCase(Locale.ROOT).split("/", -1);
    List<String> directories = new ArrayList<>();
    for (int i = 0; i < segments.length - 1; i++) {
      if (!isGlob(segments[i])) {
        directories.add(segments[i]);
      }
    }
    return directories;
  }

  private static boolean isGlob(String text) {
    return text.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{' || c == '!' || c == '(' || c == '+' || c == '@');
  }
}
