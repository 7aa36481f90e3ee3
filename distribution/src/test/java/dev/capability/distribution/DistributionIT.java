package dev.capability.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.BackendConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution archives as a user gets them: unpacked with {@code tar} into a directory far
 * from the source tree, run from another directory with a clean environment, through links, with
 * or without {@code JAVA_HOME}.
 */
class DistributionIT {
  private static final String VERSION = System.getProperty("distribution.version");
  private static final Path ARCHIVE_BASE = Path.of(System.getProperty("distribution.archive.base"));
  private static final Path TAR = Path.of(ARCHIVE_BASE + ".tar.gz");
  private static final Path ZIP = Path.of(ARCHIVE_BASE + ".zip");
  private static final String TOP = "capability-" + VERSION + "/";
  private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path root;
  private static Path home;
  private static Path workDirectory;

  @BeforeAll
  static void unpack() throws Exception {
    // Run as root, the sandbox runs as nobody, which must be able to reach the installed copy.
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path opt = Files.createDirectories(root.resolve("opt"));
    Result untar = run(List.of("tar", "-xzf", TAR.toString(), "-C", opt.toString()), Map.of("PATH", "/usr/bin:/bin"), opt);
    assertThat(untar.exit()).as(untar.stderr()).isZero();
    home = opt.resolve(TOP);
    workDirectory = Files.createDirectories(root.resolve("work"));
    // Were the launcher to let the shell expand a glob, this file would show up in an argv.
    Files.writeString(workDirectory.resolve("glob-bait"), "");
  }

  @Test
  void versionNamesTheBuiltVersion() throws Exception {
    Result result = capability(cleanEnvironment(), "--version");

    assertThat(result.exit()).as(result.stderr()).isZero();
    assertThat(result.stdout()).isEqualTo("capability " + VERSION + "\n");
  }

  @Test
  void doctorFindsTheProcessBackendOnTheInstalledClassPath() throws Exception {
    Result result = capability(cleanEnvironment(), "doctor", "--json");

    assertThat(result.exit()).as(result.stderr()).isZero();
    JsonNode doctor = JSON.readTree(result.stdout());
    assertThat(doctor.get("kernelVersion").asText()).isEqualTo(VERSION);
    List<String> ids = new ArrayList<>();
    doctor.get("backends").forEach(backend -> ids.add(backend.get("id").asText()));
    assertThat(ids).containsExactlyInAnyOrder("process", "bwrap", "docker");
    doctor.get("backends").forEach(backend -> {
      if (backend.get("id").asText().equals("process")) {
        assertThat(backend.get("available").asBoolean()).isTrue();
      }
    });
  }

  @Test
  void parseSplitsACommand() throws Exception {
    Result result = capability(cleanEnvironment(), "parse", "git status");

    assertThat(result.exit()).as(result.stderr()).isZero();
    assertThat(result.stdout()).isEqualTo("\"git\"\n\"status\"\n");
  }

  @Test
  void argumentsReachTheCliVerbatim() throws Exception {
    String command = "printf '%s|' \"two  spaces\" '*' '$HOME' '$(id)'";

    Result result = capability(cleanEnvironment(), "parse", "--json", command);

    assertThat(result.exit()).as(result.stderr()).isZero();
    assertThat(JSON.readTree(result.stdout()).get("argv").toString())
        .isEqualTo("[\"printf\",\"%s|\",\"two  spaces\",\"*\",\"$HOME\",\"$(id)\"]");
  }

  /** The README's quick start, from the installed copy: the capability runs in a child JVM in the sandbox. */
  @Test
  void runsTheHelloCapabilityInTheSandboxAndRecordsItInTheLedger() throws Exception {
    try (BackendGate bwrap = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults())) {
      bwrap.backend();
    }
    Path directory = Files.createDirectory(root.resolve("quick-start"));

    Result run = run(
        List.of(home.resolve("bin/capability").toString(), "run", "--json", home.resolve("examples/capabilities/hello").toString(), "--input", "{\"name\":\"Ada\"}"),
        cleanEnvironment(), directory);
    Result verify = run(List.of(home.resolve("bin/capability").toString(), "ledger", "verify"), cleanEnvironment(), directory);

    assertThat(run.exit()).as(run.stdout() + run.stderr()).isZero();
    JsonNode receipt = JSON.readTree(run.stdout());
    assertThat(receipt.get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(receipt.get("boundaryApplied").asBoolean()).isTrue();
    assertThat(receipt.get("output").asText()).isEqualTo("{\"greeting\":\"Hello, Ada!\"}");
    assertThat(verify.exit()).as(verify.stdout() + verify.stderr()).isZero();
  }

  @Test
  void runsThroughAbsoluteAndRelativeSymbolicLinks() throws Exception {
    Path bin = Files.createDirectories(root.resolve("usr/local/bin"));
    Path absolute = Files.createSymbolicLink(bin.resolve("capability"), home.resolve("bin/capability"));
    Path links = Files.createDirectories(root.resolve("links"));
    Path relative = Files.createSymbolicLink(links.resolve("cap"), Path.of("../usr/local/bin/capability"));

    for (Path link : List.of(absolute, relative)) {
      Result result = run(List.of(link.toString(), "--version"), cleanEnvironment(), workDirectory);
      assertThat(result.exit()).as(link + ": " + result.stderr()).isZero();
      assertThat(result.stdout()).isEqualTo("capability " + VERSION + "\n");
    }
  }

  @Test
  void findsJavaOnThePathWithoutJavaHome() throws Exception {
    Path tools = toolsDirectory("path-with-java");
    Files.createSymbolicLink(tools.resolve("java"), JAVA);

    Result result = capability(Map.of("PATH", tools.toString(), "HOME", root.toString()), "--version");

    assertThat(result.exit()).as(result.stderr()).isZero();
    assertThat(result.stdout()).isEqualTo("capability " + VERSION + "\n");
  }

  @Test
  void saysWhereToLookWhenThereIsNoJava() throws Exception {
    Path tools = toolsDirectory("path-without-java");

    Result result = capability(Map.of("PATH", tools.toString(), "HOME", root.toString()), "--version");

    assertThat(result.exit()).isEqualTo(127);
    assertThat(result.stdout()).isEmpty();
    assertThat(result.stderr()).isEqualTo("capability: java was not found: set JAVA_HOME or put Java 17 or newer on PATH\n");
  }

  @Test
  void refusesAJavaHomeWithoutJava() throws Exception {
    Map<String, String> environment = cleanEnvironment();
    environment.put("JAVA_HOME", root.resolve("no-jdk-here").toString());

    Result result = capability(environment, "--version");

    assertThat(result.exit()).isEqualTo(127);
    assertThat(result.stderr()).contains("JAVA_HOME is " + root.resolve("no-jdk-here")).contains("is not an executable");
  }

  @Test
  void noJvmOptionFromTheEnvironmentReachesTheJvm() throws Exception {
    Map<String, String> environment = cleanEnvironment();
    environment.put("_JAVA_OPTIONS", "-XX:-DisableAttachMechanism");
    environment.put("JAVA_TOOL_OPTIONS", "-Dinjected=1");
    environment.put("JDK_JAVA_OPTIONS", "-Dinjected=2");

    Result result = capability(environment, "--version");

    assertThat(result.exit()).as(result.stderr()).isZero();
    assertThat(result.stderr()).doesNotContain("Picked up");
  }

  /** The attack: a process of the same user attaches to the CLI's JVM, with the environment asking to allow it. */
  @Test
  void noProcessCanAttachToTheCliJvm() throws Exception {
    Map<String, String> environment = cleanEnvironment();
    environment.put("_JAVA_OPTIONS", "-XX:-DisableAttachMechanism");
    ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/capability").toString(), "parse", "--json")
        .directory(workDirectory.toFile())
        .redirectOutput(root.resolve("attach.out").toFile())
        .redirectError(root.resolve("attach.err").toFile());
    builder.environment().clear();
    builder.environment().putAll(environment);
    // With no COMMAND, parse reads stdin to its end: the JVM waits while stdin stays open.
    Process process = builder.start();
    try (OutputStream stdin = process.getOutputStream()) {
      long pid = process.pid();
      awaitJvm(pid, process);
      assertThat(commandLine(pid)).containsExactly(
          JAVA.toString(), "-XX:+DisableAttachMechanism", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k", "-Xmx128m",
          "-Xmn4m", "-Xshare:auto", "-cp", home.toRealPath().resolve("lib/*").toString(), "dev.capability.cli.Main", "parse", "--json");
      try {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        vm.detach();
        fail("attached to the CLI's JVM " + pid);
      } catch (AttachNotSupportedException expected) {
        assertThat(expected).hasMessage("The VM does not support the attach mechanism");
      }
      stdin.write("git status".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as(Files.readString(root.resolve("attach.err"))).isZero();
    assertThat(Files.readString(root.resolve("attach.out"))).isEqualTo("{\"argv\":[\"git\",\"status\"]}\n");
  }

  @Test
  void bothArchivesHoldTheSameFilesWithTheSameModes() throws Exception {
    Map<String, Integer> tar = tarEntries();
    Map<String, Integer> zip = zipEntries();

    assertThat(zip).isEqualTo(tar);
    assertThat(tar).containsEntry(TOP + "bin/capability", 0755)
        .containsEntry(TOP + "README.md", 0644)
        .containsEntry(TOP + "lib/capability-cli-" + VERSION + ".jar", 0644)
        .containsEntry(TOP + "lib/capability-kernel-core-" + VERSION + ".jar", 0644)
        .containsEntry(TOP + "lib/capability-backend-process-" + VERSION + ".jar", 0644)
        .containsEntry(TOP + "lib/capability-backend-bwrap-" + VERSION + ".jar", 0644)
        .containsEntry(TOP + "lib/capability-backend-docker-" + VERSION + ".jar", 0644)
        .containsEntry(TOP + "lib/capability-ledger-" + VERSION + ".jar", 0644)
        .containsEntry(TOP + "lib/capability-evaluator-" + VERSION + ".jar", 0644)
        .containsEntry(TOP + "lib/capability-egress-proxy-" + VERSION + ".jar", 0644)
        .containsEntry(TOP + "docs/install.md", 0644)
        .containsEntry(TOP + "docs/cli.md", 0644)
        .containsEntry(TOP + "docs/schemas/execution-policy.schema.json", 0644)
        .containsEntry(TOP + "examples/policies/readonly-dev.json", 0644)
        .containsEntry(TOP + "examples/evaluator/evaluation.json", 0644)
        .containsEntry(TOP + "examples/capabilities/hello/lib/hello.jar", 0644)
        .doesNotContainKey(TOP + "examples/capabilities/pom.xml");
    assertThat(tar.keySet()).allMatch(name -> name.startsWith(TOP), "every entry is under " + TOP);
    assertThat(tar.keySet()).noneMatch(name -> name.matches(".*/lib/(junit|assertj|jqwik|opentest4j|apiguardian).*"));
    assertThat(tar.keySet().stream().filter(name -> name.contains("/lib/slf4j-")))
        .containsExactlyInAnyOrder(TOP + "lib/slf4j-api-2.0.16.jar", TOP + "lib/slf4j-nop-2.0.16.jar");
  }

  private static Map<String, Integer> tarEntries() throws IOException {
    Map<String, Integer> entries = new TreeMap<>();
    try (InputStream file = Files.newInputStream(TAR);
        TarArchiveInputStream tar = new TarArchiveInputStream(new GzipCompressorInputStream(file))) {
      for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
        if (!entry.isDirectory()) {
          entries.put(entry.getName(), entry.getMode() & 07777);
        }
      }
    }
    return entries;
  }

  private static Map<String, Integer> zipEntries() throws IOException {
    Map<String, Integer> entries = new TreeMap<>();
    try (ZipFile zip = ZipFile.builder().setPath(ZIP).get()) {
      for (Enumeration<ZipArchiveEntry> all = zip.getEntries(); all.hasMoreElements(); ) {
        ZipArchiveEntry entry = all.nextElement();
        if (!entry.isDirectory()) {
          entries.put(entry.getName(), entry.getUnixMode() & 07777);
        }
      }
    }
    return entries;
  }

  /** Waits until the launcher has become the JVM and the JVM has published its performance data. */
  private static void awaitJvm(long pid, Process process) throws Exception {
    Path perfData = Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(pid));
    Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
    while (!(commandLine(pid).contains("dev.capability.cli.Main") && Files.isRegularFile(perfData) && Files.size(perfData) > 0)) {
      if (!process.isAlive() || Instant.now().isAfter(deadline)) {
        fail("the launcher did not become a running JVM: " + Files.readString(root.resolve("attach.err")));
      }
      Thread.sleep(50);
    }
  }

  private static List<String> commandLine(long pid) throws IOException {
    String raw = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8);
    return raw.isEmpty() ? List.of() : List.of(raw.split("\0"));
  }

  /** A directory with only what bash and the launcher need besides java: bash, readlink and dirname. */
  private static Path toolsDirectory(String name) throws IOException {
    Path tools = Files.createDirectory(root.resolve(name), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    for (String tool : List.of("bash", "readlink", "dirname")) {
      Path real = Path.of("/usr/bin", tool);
      Files.createSymbolicLink(tools.resolve(tool), Files.exists(real) ? real : Path.of("/bin", tool));
    }
    return tools;
  }

  /** What a login shell on a fresh machine would pass: no Maven, no source tree, no CLASSPATH. */
  private static Map<String, String> cleanEnvironment() {
    Map<String, String> environment = new HashMap<>();
    environment.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    environment.put("HOME", root.toString());
    environment.put("JAVA_HOME", System.getProperty("java.home"));
    return environment;
  }

  private static Result capability(Map<String, String> environment, String... arguments) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(home.resolve("bin/capability").toString());
    command.addAll(List.of(arguments));
    return run(command, environment, workDirectory);
  }

  private static Result run(List<String> command, Map<String, String> environment, Path directory) throws Exception {
    Path out = Files.createTempFile(root, "out", ".txt");
    Path err = Files.createTempFile(root, "err", ".txt");
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().clear();
    builder.environment().putAll(environment);
    Process process = builder.start();
    process.getOutputStream().close();
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail(command + " did not finish");
    }
    return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
  }

  private record Result(int exit, String stdout, String stderr) {}
}
