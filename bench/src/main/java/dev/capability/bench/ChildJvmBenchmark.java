package dev.capability.bench;

import dev.capability.capability.runtime.CapabilityExecutors;
import dev.capability.capability.runtime.CapabilityPackage;
import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.CapabilityPlan;
import dev.capability.capability.runtime.CapabilityRuntime;
import dev.capability.capability.runtime.ExecutionOutcome;
import dev.capability.capability.runtime.ExecutionReceipt;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.capability.runtime.internal.exec.ChildJvmExecutor;
import dev.capability.capability.runtime.internal.exec.HostRequest;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.ExecutionPolicies;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The committed {@code examples/capabilities/hello} package run through {@link CapabilityRuntime}
 * on the child-JVM executor (over {@code bwrap}, as the CLI does by default, and over the plain
 * {@code process} backend), against a raw {@code java -cp hello.jar:capability-api.jar:baseline.jar}
 * run of the same {@code execute} with the same input, each with and without an AppCDS archive,
 * and the parts of the child-JVM run measured alone: an empty JVM with the child's options, the
 * capability host started directly (no kernel, no sandbox), staging the host class path, building
 * the per-run kernel, planning; and, as a what-if, the executor with a backend created once.
 * The archives go to a temporary directory under {@code /usr/local/lib} (or {@code
 * -Dcapability.archives}), where the sandbox shows them; the runs' base directory is an empty
 * project, because the kernel reads every file under it on every run.
 *
 * <p>Run from the repository root (or set {@code -Dcapability.root}), from {@code benchmarks.jar}:
 * the host archive is made for the small class path the executor stages, which this setup writes
 * as an operator does ({@code java -cp benchmarks.jar ...HostClassPath DIR}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 4)
@Measurement(iterations = 4, time = 8)
@Fork(1)
public class ChildJvmBenchmark {
  /** The child-JVM executor's own options (ChildJvmExecutor), for the runs that bypass it. */
  private static final List<String> CHILD_OPTIONS =
      List.of("-XX:+DisableAttachMechanism", "-XX:-UsePerfData", "-XX:+UseG1GC", "-XX:TieredStopAtLevel=1", "-Xmx128m", "-Xss1m");
  /** The options that make JNA load its native library from the host's directory (HostClassPath). */
  private static final List<String> JNA_OPTIONS = List.of("-Djna.boot.library.path=.", "-Djna.nosys=true", "-Djna.nounpack=true", "-Djna.platform.library.path=");
  /** The name the executor stages JNA's native library under (HostClassPath). */
  private static final String JNA_LIBRARY = "libjnidispatch.so";
  private static final String HOST = "dev.capability.capability.runtime.internal.exec.CapabilityHost";
  private static final String HOST_CLASS_PATH = "dev.capability.capability.runtime.internal.exec.HostClassPath";
  /** The name the executor stages the host's class path under (HostClassPath). */
  private static final String HOST_JAR = "host.jar";
  private static final String INPUT = "{\"name\":\"World\"}";
  private static final String GREETING = "Hello, World!";

  private Path directory;
  private Path archives;
  private ExecutionBackend sharedBwrap;
  private CapabilityRuntime bwrapShared;
  private CapabilityRuntime bwrapSharedCds;
  private Path java;
  private CapabilityPackage hello;
  private CapabilityRuntime bwrap;
  private CapabilityRuntime process;
  private CapabilityRuntime bwrapCds;
  private CapabilityRuntime processCds;
  private Path hostJar;
  private Path hostDirectory;
  private Path hostRequest;
  private Path rawInput;
  private List<String> raw;
  private List<String> rawCds;
  private List<String> host;
  private List<String> hostCds;
  private List<String> empty;
  private ExecutionPolicy kernelPolicy;

  @Setup(Level.Trial)
  public void setUp() throws IOException, InterruptedException {
    Path root = Path.of(System.getProperty("capability.root", "")).toAbsolutePath();
    Path packageRoot = root.resolve("examples/capabilities/hello");
    java = Path.of(System.getProperty("java.home"), "bin", "java").toRealPath();
    directory = Files.createTempDirectory("child-jvm-bench", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x"))).toRealPath();
    // The base directory of the runs, an empty project: the kernel hashes and audits its files on every run.
    Path project = Files.createDirectory(directory.resolve("project"));
    // Where an operator installs the archives: outside every project, in a system directory the
    // sandbox shows read-only.
    archives =
        Files.createTempDirectory(
                Path.of(System.getProperty("capability.archives", "/usr/local/lib")),
                "capability-bench",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")))
            .toRealPath();
    hello = CapabilityPackages.open(packageRoot);

    Path baseline = directory.resolve("baseline.jar");
    writeJar(baseline, HelloBaseline.class, HelloBaseline.class.getName() + "$LogOnly", EmptyMain.class.getName());
    String rawClassPath = String.join(":", packageRoot.resolve("lib/hello.jar").toString(), apiJar(root).toString(), baseline.toString());
    rawInput = Files.writeString(directory.resolve("input.json"), INPUT);
    raw = List.of(java.toString(), "-cp", rawClassPath, HelloBaseline.class.getName());
    Path rawArchive = archives.resolve("raw.jsa");
    run(List.of(java.toString(), "-XX:ArchiveClassesAtExit=" + rawArchive, "-cp", rawClassPath, HelloBaseline.class.getName()), directory, rawInput);
    rawCds = List.of(java.toString(), "-XX:SharedArchiveFile=" + rawArchive, "-cp", rawClassPath, HelloBaseline.class.getName());
    requireArchiveUsable(rawCds, rawArchive, directory, rawInput);

    List<String> emptyArgv = new ArrayList<>(List.of(java.toString()));
    emptyArgv.addAll(CHILD_OPTIONS);
    emptyArgv.addAll(List.of("-cp", baseline.toString(), EmptyMain.class.getName()));
    empty = List.copyOf(emptyArgv);

    // The host started directly, laid out as the executor stages a run: its small class path
    // relative to the working directory, with the modification time the executor gives it.
    hostJar = hostClassPath(Files.createDirectory(directory.resolve("host-class-path")));
    hostDirectory = Files.createDirectory(directory.resolve("host"));
    stage(hostJar, hostDirectory.resolve(HOST_JAR));
    Files.copy(hostJar.resolveSibling(JNA_LIBRARY), hostDirectory.resolve(JNA_LIBRARY));
    Path module = Files.copy(packageRoot.resolve("lib/hello.jar"), hostDirectory.resolve("module.jar"));
    hostRequest = Files.write(directory.resolve("request.json"), hostRequest(module));
    host = hostArgv(List.of());
    Path hostArchive = archives.resolve("host.jsa");
    run(hostArgv(List.of("-XX:ArchiveClassesAtExit=" + hostArchive)), hostDirectory, hostRequest);
    hostCds = hostArgv(List.of("-XX:SharedArchiveFile=" + hostArchive, "-Xlog:disable", "-Xlog:all=warning:stderr"));
    requireArchiveUsable(hostCds, hostArchive, hostDirectory, hostRequest);

    kernelPolicy = ExecutionPolicy.builder().executable(ExecutableRule.atPath("java", java).exact(host.subList(1, host.size()).toArray(String[]::new)).build()).build();
    bwrap = runtime(CapabilityExecutors.childJvm("bwrap", false, project));
    process = runtime(CapabilityExecutors.childJvm("process", true, project));
    bwrapCds = runtime(CapabilityExecutors.childJvm("bwrap", false, project, hostArchive));
    processCds = runtime(CapabilityExecutors.childJvm("process", true, project, hostArchive));
    // What if the executor created its backend once instead of probing for it on every run: the
    // internal constructor that takes backend instances.
    sharedBwrap = new BwrapBackendProvider().create(BackendConfig.defaults());
    bwrapShared = runtime(new ChildJvmExecutor("bwrap", false, List.of(sharedBwrap), project));
    bwrapSharedCds = runtime(new ChildJvmExecutor("bwrap", false, List.of(sharedBwrap), project, Optional.of(hostArchive)));
    ExecutionReceipt attested = bwrapCds.run(hello, INPUT);
    requireGreeting(attested);
    List<String> attestedArgv = attested.attestation().map(Attestation::argv).orElse(List.of());
    if (!attestedArgv.contains("-XX:SharedArchiveFile=" + hostArchive)) {
      throw new IllegalStateException("the attested argv does not name the archive: " + attestedArgv);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    sharedBwrap.close();
    for (Path root : List.of(directory, archives)) {
      try (Stream<Path> paths = Files.walk(root)) {
        for (Path path : paths.sorted(Collections.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
  }

  @Benchmark
  public ExecutionReceipt childJvmBwrap() {
    return requireGreeting(bwrap.run(hello, INPUT));
  }

  @Benchmark
  public ExecutionReceipt childJvmProcess() {
    return requireGreeting(process.run(hello, INPUT));
  }

  @Benchmark
  public ExecutionReceipt childJvmBwrapSharedBackend() {
    return requireGreeting(bwrapShared.run(hello, INPUT));
  }

  @Benchmark
  public ExecutionReceipt childJvmBwrapSharedBackendCds() {
    return requireGreeting(bwrapSharedCds.run(hello, INPUT));
  }

  @Benchmark
  public String rawJavaCp() throws IOException, InterruptedException {
    return requireGreeting(run(raw, directory, rawInput));
  }

  @Benchmark
  public ExecutionReceipt childJvmBwrapCds() {
    return requireGreeting(bwrapCds.run(hello, INPUT));
  }

  @Benchmark
  public ExecutionReceipt childJvmProcessCds() {
    return requireGreeting(processCds.run(hello, INPUT));
  }

  @Benchmark
  public String rawJavaCpCds() throws IOException, InterruptedException {
    return requireGreeting(run(rawCds, directory, rawInput));
  }

  /** The child JVM's start and exit alone: its options, an empty main. */
  @Benchmark
  public String partJvmEmptyMain() throws IOException, InterruptedException {
    return run(empty, directory, rawInput);
  }

  /** The capability host as the executor starts it, without kernel or sandbox: JVM, the host's classes, the lifecycle. */
  @Benchmark
  public String partHostDirect() throws IOException, InterruptedException {
    return requireGreeting(run(host, hostDirectory, hostRequest));
  }

  @Benchmark
  public String partHostDirectCds() throws IOException, InterruptedException {
    return requireGreeting(run(hostCds, hostDirectory, hostRequest));
  }

  /**
   * What the executor does per run before launch: write the host class path and JNA's native
   * library into a fresh directory, then remove them.
   */
  @Benchmark
  public long partStageClassPath() throws IOException {
    Path staging = Files.createTempDirectory("capability-run");
    Path copy = stage(hostJar, staging.resolve(HOST_JAR));
    Path library = Files.copy(hostJar.resolveSibling(JNA_LIBRARY), staging.resolve(JNA_LIBRARY));
    long size = Files.size(copy) + Files.size(library);
    Files.delete(copy);
    Files.delete(library);
    Files.delete(staging);
    return size;
  }

  /**
   * What the executor does per run to get a kernel: build one that discovers (and so probes) the
   * backends on the class path, then close it.
   */
  @Benchmark
  public int partKernelBuild() {
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.of(kernelPolicy)).hostEnvironment(Map.of()).build()) {
      return kernel.backends().size();
    }
  }

  /** Planning alone: input schema, effects, policy, fingerprint. */
  @Benchmark
  public CapabilityPlan partPlan() {
    return bwrap.plan(hello, INPUT);
  }

  private List<String> hostArgv(List<String> archiveOptions) {
    List<String> argv = new ArrayList<>(List.of(java.toString()));
    argv.addAll(CHILD_OPTIONS);
    argv.addAll(JNA_OPTIONS);
    argv.addAll(archiveOptions);
    argv.addAll(List.of("-cp", HOST_JAR, HOST));
    return List.copyOf(argv);
  }

  private static CapabilityRuntime runtime(dev.capability.capability.runtime.Executor executor) {
    return CapabilityRuntime.builder().executor(executor).build();
  }

  private byte[] hostRequest(Path module) {
    return new HostRequest(
            module.toString(),
            hello.descriptor().moduleDigests().get(hello.descriptor().entry().module()),
            hello.descriptor().entry().className(),
            INPUT,
            List.of(),
            List.of(),
            true,
            false,
            false)
        .encode();
  }

  /**
   * The small class path the executor stages for the host, written as an operator writes it for a
   * training run: the same bytes and modification time as every run's copy.
   */
  private Path hostClassPath(Path into) throws IOException, InterruptedException {
    run(List.of(java.toString(), "-cp", System.getProperty("java.class.path"), HOST_CLASS_PATH, into.toString()), Path.of("").toAbsolutePath(), rawInput);
    Path jar = into.resolve(HOST_JAR);
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("no host class path was written at " + jar);
    }
    return jar;
  }

  private static Path stage(Path jar, Path target) throws IOException {
    Files.copy(jar, target);
    Files.setLastModifiedTime(target, Files.getLastModifiedTime(jar));
    return target;
  }

  private static Path apiJar(Path root) throws IOException {
    try (Stream<Path> jars = Files.list(root.resolve("capability-api/target"))) {
      return jars.filter(p -> p.getFileName().toString().matches("capability-capability-api-.*(?<!-sources|-javadoc)\\.jar"))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("no capability-api jar under " + root + "/capability-api/target; package the reactor first"));
    }
  }

  private static void writeJar(Path jar, Class<?> anchor, String... classNames) throws IOException {
    List<String> names = new ArrayList<>(List.of(anchor.getName()));
    names.addAll(List.of(classNames));
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (String name : names) {
        String entry = name.replace('.', '/') + ".class";
        try (InputStream in = anchor.getClassLoader().getResourceAsStream(entry)) {
          out.putNextEntry(new JarEntry(entry));
          out.write(in.readAllBytes());
          out.closeEntry();
        }
      }
    }
  }

  /** Fails unless the JVM maps the archive: {@code -Xshare:on} makes an unusable archive fatal. */
  private static void requireArchiveUsable(List<String> argv, Path archive, Path workingDirectory, Path stdin)
      throws IOException, InterruptedException {
    List<String> strict = new ArrayList<>(argv);
    strict.add(1, "-Xshare:on");
    if (!Files.isRegularFile(archive)) {
      throw new IllegalStateException("no archive was written at " + archive);
    }
    run(strict, workingDirectory, stdin);
  }

  private static String run(List<String> argv, Path workingDirectory, Path stdin) throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(argv)
            .directory(workingDirectory.toFile())
            .redirectInput(stdin.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    Process started = builder.start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    started.getInputStream().transferTo(out);
    int status = started.waitFor();
    String stdout = out.toString(StandardCharsets.UTF_8);
    if (status != 0) {
      throw new IllegalStateException(argv + " exited with " + status + ": " + stdout);
    }
    return stdout;
  }

  private static String requireGreeting(String stdout) {
    if (!stdout.contains(GREETING)) {
      throw new IllegalStateException("no greeting in " + stdout);
    }
    return stdout;
  }

  private static ExecutionReceipt requireGreeting(ExecutionReceipt receipt) {
    if (receipt.outcome() != ExecutionOutcome.SUCCEEDED || !receipt.output().orElse("").contains(GREETING)) {
      throw new IllegalStateException("the hello run did not succeed: " + receipt.code() + " " + receipt.message());
    }
    return receipt;
  }
}
