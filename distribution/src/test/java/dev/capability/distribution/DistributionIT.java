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
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
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

  /** The source tree's launcher and the installed one run the same archive code: a fix to one reaches both. */
  @Test
  void bothLaunchersCheckAndMakeTheArchiveAlike() throws Exception {
    assertThat(archiveCode(Path.of("..", "bin", "capability"))).isEqualTo(archiveCode(home.resolve("bin/capability")));
  }

  private static String archiveCode(Path launcher) throws IOException {
    String text = Files.readString(launcher);
    int start = text.indexOf("# The CLI's class data archive (AppCDS)");
    assertThat(start).as(launcher + " has the archive code").isNotNegative();
    return text.substring(start, text.indexOf("\nfi\n", start));
  }

  /** The class data archive needs stat, sha256sum and more; without them the command runs without it, silently. */
  @Test
  void aShortCommandRunsWithoutTheArchiveWhenTheToolsForItAreMissing() throws Exception {
    Path tools = toolsDirectory("path-without-cache-tools");
    Map<String, String> environment = Map.of("PATH", tools.toString(), "HOME", root.toString(), "JAVA_HOME", System.getProperty("java.home"));

    Result result = capability(environment, "parse", "git status");

    assertThat(result.exit()).as(result.stderr()).isZero();
    assertThat(result.stdout()).isEqualTo("\"git\"\n\"status\"\n");
    assertThat(result.stderr()).isEmpty();
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
    environment.put("XDG_CACHE_HOME", Files.createDirectory(root.resolve("attach-cache")).toString());
    // With no COMMAND, parse reads stdin to its end: the JVM waits while stdin stays open.
    try (HeldCli cli = HeldCli.start(environment)) {
      assertThat(cli.commandLine()).containsExactly(
          JAVA.toString(), "-XX:+DisableAttachMechanism", "-XX:TieredStopAtLevel=1", "-XX:+UseG1GC", "-Xss512k", "-Xmx128m",
          "-Xmn4m", "-Xshare:auto", "-Xlog:disable", "-Xlog:all=warning:stderr", "-cp", classPath(), "dev.capability.cli.Main", "parse", "--json");
      try {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(cli.pid()));
        vm.detach();
        fail("attached to the CLI's JVM " + cli.pid());
      } catch (AttachNotSupportedException expected) {
        assertThat(expected).hasMessage("The VM does not support the attach mechanism");
      }
      Result result = cli.finish("git status");
      assertThat(result.exit()).as(result.stderr()).isZero();
      assertThat(result.stdout()).isEqualTo("{\"argv\":[\"git\",\"status\"]}\n");
    }
  }

  /**
   * The JVM options the launcher chooses, seen by a "java" that prints its arguments (a copy of
   * coreutils' echo): exec gets the client compiler and the serial collector with the default heap
   * and no archive; a long-running command such as run gets none.
   */
  @Test
  void execRunsWithTheClientCompilerAndTheSerialCollectorAndRunWithTheJvmDefaults() throws Exception {
    Path echo = Stream.of(Path.of("/usr/bin/echo"), Path.of("/bin/echo")).filter(Files::isExecutable).findFirst()
        .orElseThrow(() -> new AssertionError("this test needs coreutils' echo in /usr/bin or /bin"));
    Path jdk = Files.createDirectories(root.resolve("echoing-jdk/bin")).getParent();
    Files.copy(echo, jdk.resolve("bin/java"));
    Files.setPosixFilePermissions(jdk.resolve("bin/java"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> environment = cleanEnvironment();
    environment.put("JAVA_HOME", jdk.toString());
    environment.put("XDG_CACHE_HOME", Files.createDirectory(root.resolve("echoing-cache")).toString());
    String cli = "-cp " + classPath() + " dev.capability.cli.Main ";

    Result exec = capability(environment, "exec", "--no-ledger", "--", "git", "status");
    Result run = capability(environment, "run", "examples/capabilities/hello");

    assertThat(exec.exit()).as(exec.stderr()).isZero();
    assertThat(exec.stdout())
        .isEqualTo("-XX:+DisableAttachMechanism -XX:TieredStopAtLevel=1 -XX:+UseSerialGC " + cli + "exec --no-ledger -- git status\n");
    assertThat(run.stdout()).isEqualTo("-XX:+DisableAttachMechanism " + cli + "run examples/capabilities/hello\n");
  }

  /** The launcher's class path: every jar of lib/, in the order of their names. */
  private static String classPath() throws IOException {
    try (Stream<Path> jars = Files.list(home.toRealPath().resolve("lib"))) {
      return String.join(":", jars.map(Path::toString).filter(name -> name.endsWith(".jar")).sorted().toList());
    }
  }

  // The class data archive of a short command (docs/cli.md, "Start-up"): made by a training run
  // after the first call, mapped from the second, and refused, once, when it is not what this
  // launcher made for this user, JDK and class path. One archive is trained here and copied into
  // a cache of its own for each attack.

  private static Path trainedCache;

  @Test
  void theFirstShortCommandMakesTheArchiveAndItsDigestAndTheNextOneMapsIt() throws Exception {
    Path cds = trainedCache().resolve("capability/cds");
    Path archive = archiveIn(cds);

    assertThat(Files.getPosixFilePermissions(cds)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
    assertThat(Files.getPosixFilePermissions(archive)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(Files.getPosixFilePermissions(digestOf(archive))).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(Files.readString(digestOf(archive))).isEqualTo(sha256(archive) + " " + archive.getFileName() + "\n");
    try (HeldCli cli = HeldCli.start(cacheEnvironment(trainedCache()))) {
      assertThat(cli.commandLine()).contains("-XX:SharedArchiveFile=" + archive);
      assertThat(cli.mappedFiles()).as("the files the CLI's JVM maps").contains(archive.toString());
      Result result = cli.finish("git status");
      assertThat(result.exit()).as(result.stderr()).isZero();
      assertThat(result.stdout()).isEqualTo("{\"argv\":[\"git\",\"status\"]}\n");
      assertThat(result.stderr()).isEmpty();
    }
  }

  @Test
  void anArchiveWithOneByteFlippedIsNotMappedAndIsReportedOnce() throws Exception {
    Path cache = copyOfTrainedCache("tampered");
    Path archive = archiveIn(cache.resolve("capability/cds"));
    try (RandomAccessFile file = new RandomAccessFile(archive.toFile(), "rw")) {
      long middle = file.length() / 2;
      file.seek(middle);
      int original = file.read();
      file.seek(middle);
      file.write(original ^ 0x01);
    }

    assertRefusedOnce(cache, archive, "its SHA-256 is not the one recorded when it was made");
  }

  @Test
  void anArchiveOfAnotherClassPathIsNotUsed() throws Exception {
    // Another installation, whose class path has one jar more: its archive and digest, copied in
    // under this installation's name.
    Path other = Files.createDirectories(root.resolve("other-opt"));
    Result untar = run(List.of("tar", "-xzf", TAR.toString(), "-C", other.toString()), Map.of("PATH", "/usr/bin:/bin"), other);
    assertThat(untar.exit()).as(untar.stderr()).isZero();
    Path otherLib = other.resolve(TOP).resolve("lib");
    Files.copy(otherLib.resolve("slf4j-nop-2.0.16.jar"), otherLib.resolve("zz-extra.jar"));
    Path otherCache = Files.createDirectory(root.resolve("other-cache"));
    Result first = run(List.of(other.resolve(TOP).resolve("bin/capability").toString(), "parse", "git status"), cacheEnvironment(otherCache), workDirectory);
    assertThat(first.exit()).as(first.stderr()).isZero();
    Path foreign = awaitArchive(otherCache.resolve("capability/cds"));
    Path cache = copyOfTrainedCache("foreign");
    Path archive = archiveIn(cache.resolve("capability/cds"));
    Files.copy(foreign, archive, StandardCopyOption.REPLACE_EXISTING);
    Files.copy(digestOf(foreign), digestOf(archive), StandardCopyOption.REPLACE_EXISTING);

    assertRefusedOnce(cache, archive, "its recorded digest is for " + foreign.getFileName() + ": it was made for another class path or JDK");

    // With a digest forged to match (only someone who can write the user's cache could), the
    // launcher passes it on, and the JVM refuses it itself: its class path is not this one. The
    // archive is a static one, which stands in for the JDK's own, so the JVM falls back to no
    // archive at all (-Xshare:auto), and the command still answers.
    Path forged = copyOfTrainedCache("foreign-forged");
    Path forgedArchive = archiveIn(forged.resolve("capability/cds"));
    Files.copy(foreign, forgedArchive, StandardCopyOption.REPLACE_EXISTING);
    Files.writeString(digestOf(forgedArchive), sha256(forgedArchive) + " " + forgedArchive.getFileName() + "\n");
    try (HeldCli cli = HeldCli.start(cacheEnvironment(forged))) {
      assertThat(cli.commandLine()).contains("-XX:SharedArchiveFile=" + forgedArchive);
      assertThat(cli.mappedFiles()).doesNotContain(forgedArchive.toString()).noneMatch(file -> file.endsWith(".jsa"));
      Result result = cli.finish("git status");
      assertThat(result.exit()).as(result.stderr()).isZero();
      assertThat(result.stdout()).isEqualTo("{\"argv\":[\"git\",\"status\"]}\n");
    }
  }

  @Test
  void anArchiveOthersCouldWriteOrOwnIsNotUsed() throws Exception {
    Path writable = copyOfTrainedCache("group-writable");
    Path writableArchive = archiveIn(writable.resolve("capability/cds"));
    Files.setPosixFilePermissions(writableArchive, PosixFilePermissions.fromString("rw-rw-rw-"));
    assertRefusedOnce(writable, writableArchive, "it is writable by group or others (mode 666)");

    Path openDirectory = copyOfTrainedCache("open-directory");
    Path cds = openDirectory.resolve("capability/cds");
    Files.setPosixFilePermissions(cds, PosixFilePermissions.fromString("rwxrwxrwx"));
    Result refused = run(List.of(home.resolve("bin/capability").toString(), "parse", "git status"), cacheEnvironment(openDirectory), workDirectory);
    assertThat(refused.exit()).as(refused.stderr()).isZero();
    assertThat(refused.stdout()).isEqualTo("\"git\"\n\"status\"\n");
    assertThat(refused.stderr()).matches("capability: not using the class data archives in " + cds
        + ": it is writable by group or others \\(mode 777\\); it is moved to " + cds + "\\.refused-\\d+\n");
    assertThat(Files.getPosixFilePermissions(cds)).isEqualTo(PosixFilePermissions.fromString("rwx------"));

    Assumptions.assumeTrue(System.getProperty("user.name").equals("root"), "only root can give the archive to another user");
    Path owned = copyOfTrainedCache("owned-by-nobody");
    Path ownedArchive = archiveIn(owned.resolve("capability/cds"));
    Result chown = run(List.of("chown", "65534", ownedArchive.toString()), Map.of("PATH", "/usr/bin:/bin"), root);
    assertThat(chown.exit()).as(chown.stderr()).isZero();
    assertRefusedOnce(owned, ownedArchive, "it is owned by uid 65534, not by this user (uid 0)");
  }

  /**
   * The CLI answers without the archive, says why in one line on stderr, and does not say it again:
   * the archive is gone (a new one may have been trained meanwhile, and is then used).
   */
  private static void assertRefusedOnce(Path cache, Path archive, String reason) throws Exception {
    byte[] refusedBytes = Files.readAllBytes(archive);
    Result first;
    try (HeldCli cli = HeldCli.start(cacheEnvironment(cache))) {
      assertThat(cli.commandLine()).noneMatch(option -> option.startsWith("-XX:SharedArchiveFile"));
      assertThat(cli.mappedFiles()).doesNotContain(archive.toString());
      first = cli.finish("git status");
    }
    Result second = run(List.of(home.resolve("bin/capability").toString(), "parse", "--json", "git status"), cacheEnvironment(cache), workDirectory);

    assertThat(first.exit()).as(first.stderr()).isZero();
    assertThat(first.stdout()).isEqualTo("{\"argv\":[\"git\",\"status\"]}\n");
    assertThat(first.stderr()).isEqualTo("capability: not using the class data archive " + archive + ": " + reason + "; it is removed and made again\n");
    assertThat(second.exit()).as(second.stderr()).isZero();
    assertThat(second.stdout()).isEqualTo("{\"argv\":[\"git\",\"status\"]}\n");
    assertThat(second.stderr()).isEmpty();
    if (Files.exists(archive, LinkOption.NOFOLLOW_LINKS)) {
      assertThat(Files.readAllBytes(archive)).as("the refused archive is still there").isNotEqualTo(refusedBytes);
    }
  }

  /** A cache whose parse archive a first call made (once per run of this class). */
  private static synchronized Path trainedCache() throws Exception {
    if (trainedCache == null) {
      Path cache = Files.createDirectory(root.resolve("trained-cache"));
      Result first = run(List.of(home.resolve("bin/capability").toString(), "parse", "git status"), cacheEnvironment(cache), workDirectory);
      assertThat(first.exit()).as(first.stderr()).isZero();
      assertThat(first.stdout()).isEqualTo("\"git\"\n\"status\"\n");
      assertThat(first.stderr()).isEmpty();
      awaitArchive(cache.resolve("capability/cds"));
      trainedCache = cache;
    }
    return trainedCache;
  }

  /** A copy of the trained cache, modes and times kept. */
  private static Path copyOfTrainedCache(String name) throws Exception {
    Path from = trainedCache();
    Path to = root.resolve(name);
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.filter(file -> !file.getFileName().toString().equals("training.lock")).toList()) {
        Files.copy(file, to.resolve(from.relativize(file)), StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
    return to;
  }

  /** Waits for the training run that a first call started to record its digest and write its archive. */
  private static Path awaitArchive(Path cds) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
    while (true) {
      try (Stream<Path> files = Files.list(cds)) {
        List<Path> archives = files.filter(file -> file.getFileName().toString().endsWith(".jsa")).toList();
        if (archives.size() == 1 && Files.exists(digestOf(archives.get(0)))) {
          return archives.get(0);
        }
      }
      if (Instant.now().isAfter(deadline)) {
        fail("no archive was made in " + cds);
      }
      Thread.sleep(200);
    }
  }

  private static Path archiveIn(Path cds) throws IOException {
    try (Stream<Path> files = Files.list(cds)) {
      return files.filter(file -> file.getFileName().toString().endsWith(".jsa")).findFirst().orElseThrow();
    }
  }

  private static Path digestOf(Path archive) {
    return archive.resolveSibling(archive.getFileName() + ".sha256");
  }

  private static String sha256(Path file) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }

  private static Map<String, String> cacheEnvironment(Path cache) {
    Map<String, String> environment = cleanEnvironment();
    environment.put("XDG_CACHE_HOME", cache.toString());
    return environment;
  }

  /** Training runs still going when the tests end would write into the directory JUnit deletes. */
  @AfterAll
  static void awaitTrainingRuns() throws Exception {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path lock : files.filter(file -> file.getFileName().toString().equals("training.lock")).toList()) {
        run(List.of("flock", lock.toString(), "true"), Map.of("PATH", "/usr/bin:/bin"), root);
      }
    }
  }

  /**
   * {@code capability parse --json} reading its command from stdin, which stays open until
   * {@link #finish}: meanwhile its JVM can be looked at.
   */
  private static final class HeldCli implements AutoCloseable {
    private final Process process;
    private final Path out;
    private final Path err;

    private HeldCli(Process process, Path out, Path err) {
      this.process = process;
      this.out = out;
      this.err = err;
    }

    static HeldCli start(Map<String, String> environment) throws Exception {
      Path out = Files.createTempFile(root, "out", ".txt");
      Path err = Files.createTempFile(root, "err", ".txt");
      ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/capability").toString(), "parse", "--json")
          .directory(workDirectory.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
      builder.environment().clear();
      builder.environment().putAll(environment);
      HeldCli cli = new HeldCli(builder.start(), out, err);
      cli.awaitJavaCode();
      return cli;
    }

    long pid() {
      return process.pid();
    }

    List<String> commandLine() throws IOException {
      return DistributionIT.commandLine(pid());
    }

    /** The files mapped into the JVM's memory: the class data archives it uses among them. */
    List<String> mappedFiles() throws IOException {
      return Files.readAllLines(Path.of("/proc", Long.toString(pid()), "maps")).stream()
          .map(line -> line.split("\\s+", 6)).filter(fields -> fields.length == 6).map(fields -> fields[5]).distinct().toList();
    }

    Result finish(String stdin) throws Exception {
      try (OutputStream in = process.getOutputStream()) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the CLI ended").isTrue();
      return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /**
     * Waits until the launcher has become the JVM and the JVM runs Java code: it has started its
     * reference handler thread, which the JDK's own classes start once the JVM has mapped every
     * class data archive it will use. (The CLI's jars are no sign: with the trained archive the
     * JVM opens none of them.)
     */
    private void awaitJavaCode() throws Exception {
      Path tasks = Path.of("/proc", Long.toString(pid()), "task");
      Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
      while (!(commandLine().contains("dev.capability.cli.Main") && hasReferenceHandler(tasks))) {
        if (!process.isAlive() || Instant.now().isAfter(deadline)) {
          fail("the launcher did not become a running JVM: " + Files.readString(err));
        }
        Thread.sleep(20);
      }
    }

    /** Whether a thread in {@code tasks} is named "Reference Handler" (cut to 15 bytes by the kernel). */
    private static boolean hasReferenceHandler(Path tasks) {
      try (Stream<Path> threads = Files.list(tasks)) {
        return threads.anyMatch(thread -> {
          try {
            return Files.readString(thread.resolve("comm")).strip().equals("Reference Handl");
          } catch (IOException gone) {
            return false;
          }
        });
      } catch (IOException | UncheckedIOException notYet) {
        return false;
      }
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
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
