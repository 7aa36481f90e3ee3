package dev.capability.examples.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The published modules as an application on the module path sees them: their public API compiles
 * and runs, their {@code internal} packages do not compile, and the kernel finds a backend and an
 * application's own plugins with ServiceLoader. The module path is exactly this example's runtime
 * dependencies (the pom lists them for the test), never the test libraries; built with {@code -am},
 * the project's modules are their compiled {@code target/classes}.
 */
class ModulePathEmbeddingTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String CLIENT_MODULE = """
      module example.client {
        requires dev.capability.kernel.core;
        exports example.client;
        uses example.client.Greeting;
        provides example.client.Greeting with example.client.English;
      }
      """;
  private static final String GREETING = """
      package example.client;
      public interface Greeting {
        String id();
      }
      """;
  private static final String ENGLISH = """
      package example.client;
      public final class English implements Greeting {
        public String id() {
          return "english";
        }
      }
      """;
  /** Public API of kernel-core and, through {@code requires transitive}, of kernel-api. */
  private static final String CLIENT_MAIN = """
      package example.client;
      import dev.capability.kernel.api.plugin.Plugins;
      import dev.capability.kernel.core.CommandKernel;
      public final class Main {
        public static void main(String[] args) {
          System.out.println(CommandKernel.class.getModule().getName());
          System.out.println(Plugins.load(Greeting.class, Greeting::id, Main.class.getClassLoader()).keySet());
        }
      }
      """;

  private static List<Path> modulePath;

  @TempDir Path temp;

  @BeforeAll
  static void readTheRuntimeModulePath() throws IOException {
    String listing = Files.readString(Path.of(System.getProperty("embedding.runtimeModulePath"))).strip();
    modulePath = Stream.of(listing.split(File.pathSeparator)).map(Path::of).toList();
    ModuleReference core = ModuleFinder.of(modulePath.toArray(Path[]::new)).find("dev.capability.kernel.core")
        .orElseThrow(() -> new AssertionError("kernel-core is not on the module path " + modulePath));
    assertThat(core.descriptor().isAutomatic())
        .as("kernel-core at %s has no module-info: build the example with -am so that the reactor's classes are used", core.location())
        .isFalse();
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }

  @Test
  void aClientModuleCompilesAgainstThePublicApiAndRunsItsOwnPluginsThroughPlugins() throws Exception {
    Path classes = compile(Map.of(
        "module-info.java", CLIENT_MODULE,
        "example/client/Greeting.java", GREETING,
        "example/client/English.java", ENGLISH,
        "example/client/Main.java", CLIENT_MAIN)).assertSucceeded();

    Run run = java(List.of("--module-path", pathOf(classes), "--module", "example.client/example.client.Main"));

    // Plugins (in kernel-api) calls ServiceLoader for a service kernel-api's module-info cannot
    // name: it finds the provider only because it declares the use at run time.
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).isEqualTo("dev.capability.kernel.core\n[english]\n");
  }

  @Test
  void aClientModuleCannotCompileAgainstAnyInternalPackage() throws Exception {
    List<String> internal = List.of(
        "dev.capability.kernel.core.internal.policy.CommandAuthorizer",
        "dev.capability.kernel.api.json.internal.StrictJsonParser",
        "dev.capability.backend.bwrap.internal.BwrapBackend",
        "dev.capability.linux.internal.NativeSpawner");
    String imports = internal.stream().map(name -> "import " + name + ";\n").collect(Collectors.joining());

    Compilation compilation = compile(Map.of(
        "module-info.java", """
            module example.intruder {
              requires dev.capability.kernel.core;
              requires dev.capability.backend.bwrap;
              requires dev.capability.linux;
            }
            """,
        "example/intruder/Intruder.java", "package example.intruder;\n" + imports + "final class Intruder {}\n"));

    assertThat(compilation.succeeded()).as(compilation.diagnostics()).isFalse();
    for (String name : internal) {
      String pkg = name.substring(0, name.lastIndexOf('.'));
      String module = ModuleFinder.of(modulePath.toArray(Path[]::new)).findAll().stream()
          .map(ModuleReference::descriptor)
          .filter(descriptor -> descriptor.packages().contains(pkg))
          .map(ModuleDescriptor::name)
          .findFirst()
          .orElseThrow();
      assertThat(compilation.diagnostics())
          .contains("package " + pkg + " is not visible")
          .contains("(package " + pkg + " is declared in module " + module + ", which does not export it");
    }
  }

  @Test
  void theExampleRunsOnTheModulePathAndTheKernelFindsTheBackendWithServiceLoader() throws Exception {
    BWRAP.backend();
    Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path repository = Files.createDirectory(temp.resolve("repository")).toRealPath();
    run(repository, "git", "init", "-q");
    Files.writeString(repository.resolve("hello.txt"), "hello\n");
    String example = System.getProperty("embedding.classes");

    Run run = java(List.of(
        "--module-path", example + File.pathSeparator + pathOf(),
        "--module", "dev.capability.examples.embedding/" + EmbeddingExample.class.getName(),
        repository.toString()));

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout())
        .startsWith("git status --short: exit 0 on backend bwrap\n?? hello.txt\n\ngit log: SUBCOMMAND_NOT_ALLOWED: ");
  }

  private record Compilation(boolean succeeded, String diagnostics, Path classes) {
    Path assertSucceeded() {
      assertThat(succeeded).as(diagnostics).isTrue();
      return classes;
    }
  }

  private record Run(int exitCode, String stdout, String stderr) {}

  private Compilation compile(Map<String, String> sources) throws IOException {
    Path sourceRoot = Files.createTempDirectory(temp, "src");
    Path classes = Files.createTempDirectory(temp, "classes");
    List<Path> files = new ArrayList<>();
    for (Map.Entry<String, String> source : sources.entrySet()) {
      Path file = sourceRoot.resolve(source.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
      files.add(file);
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter diagnostics = new StringWriter();
    try (StandardJavaFileManager fileManager = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      // Otherwise javac takes this JVM's class path, where every package of every module is visible.
      fileManager.setLocationFromPaths(StandardLocation.CLASS_PATH, List.of());
      boolean succeeded = javac.getTask(
              diagnostics,
              fileManager,
              null,
              List.of("--module-path", pathOf(), "-d", classes.toString()),
              null,
              fileManager.getJavaFileObjectsFromPaths(files))
          .call();
      return new Compilation(succeeded, diagnostics.toString(), classes);
    }
  }

  private static String pathOf(Path... first) {
    return Stream.concat(Stream.of(first), modulePath.stream()).map(Path::toString).collect(Collectors.joining(File.pathSeparator));
  }

  private Run java(List<String> arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(arguments);
    Path out = Files.createTempFile(temp, "stdout", ".txt");
    Path err = Files.createTempFile(temp, "stderr", ".txt");
    Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    process.getOutputStream().close();
    assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("java %s did not finish", arguments).isTrue();
    return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  private static void run(Path directory, String... command) throws Exception {
    Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
  }
}
