package dev.capability.backend.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.BuildImageResultCallback;
import dev.capability.backend.docker.internal.DockerClients;
import dev.capability.backend.docker.internal.DockerEndpoint;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.testing.RequiredBackends;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * A second, real {@code dockerd} for this test JVM, reached only as a remote daemon is: over TCP on
 * 127.0.0.1 with TLS client verification ({@code --tlsverify}), with a CA, a server certificate for
 * 127.0.0.1 and a client certificate made at test time with the {@code openssl} CLI, and with its
 * own data root, exec root and pid file, no iptables rules and its containers kept off the bridge
 * (a spec that allows the network gets the host's), so that it cannot disturb the machine's main
 * daemon, and seeing nothing of this host through a bind. Started on first use,
 * stopped at JVM exit; one per JVM.
 *
 * <p>Its image is the runtime image built by what {@code capability image} runs ({@link
 * RuntimeImageMain}, in a JVM of its own with {@code DOCKER_HOST}, {@code DOCKER_TLS_VERIFY} and
 * {@code DOCKER_CERT_PATH} pointing at it), plus, in a derived image built when {@link
 * Started#config()} is first asked for, the host programs the contract suite pins and the libraries
 * they load: a remote daemon's image carries the userland a local run binds from the host. The
 * CLI's tests use this class too (the module publishes its test classes as a test-jar), running
 * only the runtime image.
 *
 * <p>Needs root, {@code dockerd} and {@code openssl}: skipped with the reason otherwise, unless
 * {@code CAPABILITY_REQUIRE_BACKENDS=1}.
 */
public final class SecondDockerDaemon {
  /** The derived image the remote tests run in. */
  public static final String TEST_IMAGE = "capability/runtime-remote-tck:" + Runtime.version().feature();

  private static final Duration START_WAIT = Duration.ofSeconds(90);
  private static final List<Path> DOCKERD = List.of(Path.of("/usr/sbin/dockerd"), Path.of("/usr/bin/dockerd"));
  private static final List<Path> OPENSSL = List.of(Path.of("/usr/bin/openssl"), Path.of("/bin/openssl"));

  /** The host programs the contract suite and the remote tests run, and what their scripts call. */
  private static final List<String> PROGRAMS =
      List.of(
          "sh", "dash", "perl", "cat", "env", "head", "tail", "printf", "pwd", "touch", "true",
          "false", "sleep", "sed", "ls", "id", "kill", "mkfifo", "ln", "rm", "mkdir", "echo", "wc",
          "tr", "grep", "stat", "dd", "readlink", "chmod", "mv", "cp", "yes", "setsid", "nohup",
          "truncate", "seq", "find", "xargs", "basename", "dirname", "date", "uname", "nproc");

  /** Perl's module directories (Debian's layout), which the suite's perl programs load from. */
  private static final List<Path> PERL_TREES =
      Stream.of(
              "/usr/share/perl", "/usr/share/perl5", "/usr/lib/x86_64-linux-gnu/perl",
              "/usr/lib/x86_64-linux-gnu/perl5", "/usr/lib/x86_64-linux-gnu/perl-base",
              "/usr/lib/aarch64-linux-gnu/perl", "/usr/lib/aarch64-linux-gnu/perl5",
              "/usr/lib/aarch64-linux-gnu/perl-base", "/etc/perl")
          .map(Path::of)
          .toList();

  private static volatile Started started;
  private static volatile String unavailable;
  private static boolean testImageBuilt;
  private static String testImageUnavailable;

  private SecondDockerDaemon() {}

  /** What the fixture made and where the daemon listens. */
  public record Started(
      URI host,
      Path clientCertificates,
      Path foreignClientCertificates,
      Path directory,
      Process process,
      String[] runtimeImageId) {

    /** The runtime image's id, as the image command's path printed it when it built the image. */
    public String runtimeImage() {
      return runtimeImageId[0];
    }

    /** The environment that points the docker CLI, or {@code capability image}, at this daemon. */
    public Map<String, String> environment() {
      return Map.of(
          "DOCKER_HOST", host.toString(),
          "DOCKER_TLS_VERIFY", "1",
          "DOCKER_CERT_PATH", clientCertificates.toString());
    }

    /**
     * Settings that connect the backend to this daemon over TLS, running the test image, which is
     * built on the first call (a test that runs only the runtime image, as the CLI's do, never
     * pays for it).
     */
    public BackendConfig config() {
      requireTestImage(this);
      Map<String, String> settings = new LinkedHashMap<>(connection().settings());
      settings.put("docker.image", TEST_IMAGE);
      // Off the shared docker0: its address pool would overlap the main daemon's.
      settings.put("docker.network", "host");
      return new BackendConfig(settings);
    }

    /** The settings that reach this daemon over TLS, and nothing else. */
    public BackendConfig connection() {
      return new BackendConfig(
          Map.of(
              "docker.host", host.toString(),
              "docker.tls-verify", "true",
              "docker.cert-path", clientCertificates.toString()));
    }

    /** A client for the daemon, for a test's own look at it. */
    public DockerClient client() {
      return DockerClients.forEndpoint(DockerEndpoint.from(connection(), Map.of()));
    }
  }

  /**
   * The daemon, started and holding the test image on first use.
   *
   * @throws org.opentest4j.TestAbortedException when this machine cannot run it (or an assertion
   *     error under {@code CAPABILITY_REQUIRE_BACKENDS=1})
   */
  public static synchronized Started get() {
    if (started != null) {
      return started;
    }
    if (unavailable != null) {
      return RequiredBackends.skipOrFail(unavailable);
    }
    try {
      started = start();
      return started;
    } catch (RuntimeException | IOException e) {
      unavailable = "the second docker daemon for the remote tests could not start: " + e;
      return RequiredBackends.skipOrFail(unavailable);
    }
  }

  private static Started start() throws IOException {
    if (!"root".equals(System.getProperty("user.name"))) {
      throw new IllegalStateException("it needs root, and this JVM runs as " + System.getProperty("user.name"));
    }
    Path dockerd = first(DOCKERD, "dockerd (install docker.io)");
    Path openssl = first(OPENSSL, "openssl");
    // Short: containerd's sockets live under the exec root, and a Unix socket path is short.
    Path directory = Files.createTempDirectory(Path.of("/tmp"), "ckd-");
    Path tls = Files.createDirectory(directory.resolve("tls"));
    Path client = Files.createDirectory(directory.resolve("client"));
    Path foreign = Files.createDirectory(directory.resolve("foreign"));
    Certificates certificates = new Certificates(openssl, tls);
    certificates.authority("ca", "ck-test-ca");
    certificates.signed("ca", "server", "127.0.0.1", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
    certificates.signed("ca", "client", "ck-test-client", "extendedKeyUsage=clientAuth\n");
    certificates.authority("other-ca", "ck-other-ca");
    certificates.signed("other-ca", "stranger", "ck-test-client", "extendedKeyUsage=clientAuth\n");
    Files.copy(tls.resolve("ca.pem"), client.resolve("ca.pem"));
    Files.copy(tls.resolve("client-cert.pem"), client.resolve("cert.pem"));
    Files.copy(tls.resolve("client-key.pem"), client.resolve("key.pem"));
    // The daemon's own CA, so the refusal is the daemon's, not this client's distrust of it.
    Files.copy(tls.resolve("ca.pem"), foreign.resolve("ca.pem"));
    Files.copy(tls.resolve("stranger-cert.pem"), foreign.resolve("cert.pem"));
    Files.copy(tls.resolve("stranger-key.pem"), foreign.resolve("key.pem"));
    Path config = directory.resolve("daemon.json");
    Files.writeString(config, "{}\n");
    int port = freePort();
    URI host = URI.create("tcp://127.0.0.1:" + port);
    List<String> argv =
        List.of(
            dockerd.toString(),
            "--host=" + host,
            "--tlsverify",
            "--tlscacert=" + tls.resolve("ca.pem"),
            "--tlscert=" + tls.resolve("server-cert.pem"),
            "--tlskey=" + tls.resolve("server-key.pem"),
            "--data-root=" + directory.resolve("data"),
            "--exec-root=" + directory.resolve("exec"),
            "--pidfile=" + directory.resolve("dockerd.pid"),
            "--config-file=" + config,
            // Not --bridge=none: a daemon without a bridge deletes the interface docker0 at start,
            // which is the main daemon's. It finds docker0 (or makes it as the main daemon would)
            // and, with no iptables rules and host networking for its containers, never changes it.
            "--iptables=false",
            "--ip6tables=false",
            "--ip-forward=false",
            "--ip-masq=false",
            "--userland-proxy=false",
            "--log-level=warn");
    Process process =
        new ProcessBuilder(argv)
            .redirectErrorStream(true)
            .redirectOutput(directory.resolve("dockerd.log").toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    Started daemon = new Started(host, client, foreign, directory, process, new String[1]);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(daemon), "ck-second-dockerd-stop"));
    awaitUp(daemon);
    ImageCommandRun build = runImageCommand(daemon.environment(), directory);
    if (build.status() != 0) {
      throw new IllegalStateException("building the runtime image failed: " + build.stderr());
    }
    daemon.runtimeImageId()[0] = build.stdout().strip();
    return daemon;
  }

  /**
   * Builds {@link #TEST_IMAGE} on the daemon once per JVM; when that fails, the calling test and
   * every later one is skipped with the reason (or fails under {@code CAPABILITY_REQUIRE_BACKENDS=1}).
   */
  private static synchronized void requireTestImage(Started daemon) {
    if (testImageBuilt) {
      return;
    }
    if (testImageUnavailable != null) {
      RequiredBackends.skipOrFail(testImageUnavailable);
    }
    try {
      buildTestImage(daemon);
      testImageBuilt = true;
    } catch (RuntimeException | IOException e) {
      testImageUnavailable = "the test image " + TEST_IMAGE + " could not be built on the second docker daemon: " + e;
      RequiredBackends.skipOrFail(testImageUnavailable);
    }
  }

  /** What the image command printed, and its exit status. */
  public record ImageCommandRun(int status, String stdout, String stderr) {}

  /**
   * Runs what {@code capability image} runs ({@link RuntimeImageMain}) in a JVM of its own with
   * {@code environment} added to a copy of this one's without any {@code DOCKER_*} variable.
   */
  public static ImageCommandRun runImageCommand(Map<String, String> environment, Path scratch) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path out = Files.createTempFile(scratch, "image-", ".out");
    Path err = Files.createTempFile(scratch, "image-", ".err");
    ProcessBuilder builder =
        new ProcessBuilder(
                java.toString(), "-cp", classPath, RuntimeImageMain.class.getName(), LocalRuntimeImage.defaultTag())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("DOCKER_") || name.startsWith("CAPABILITY_DOCKER_"));
    builder.environment().putAll(environment);
    int status = awaitExit(builder.start(), "the image command");
    return new ImageCommandRun(status, Files.readString(out), Files.readString(err));
  }

  private static void awaitUp(Started daemon) throws IOException {
    long deadline = System.nanoTime() + START_WAIT.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() - deadline < 0) {
      if (!daemon.process().isAlive()) {
        throw new IllegalStateException("dockerd exited: " + log(daemon));
      }
      try (DockerClient client = daemon.client()) {
        client.pingCmd().exec();
        return;
      } catch (RuntimeException e) {
        last = e;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for dockerd", e);
      }
    }
    throw new IllegalStateException("dockerd did not answer within " + START_WAIT + ": " + last + "; " + log(daemon));
  }

  private static String log(Started daemon) {
    try {
      String log = Files.readString(daemon.directory().resolve("dockerd.log"));
      return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  private static void stop(Started daemon) {
    daemon.process().destroy();
    try {
      if (!daemon.process().waitFor(30, TimeUnit.SECONDS)) {
        daemon.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // The daemon leaves its network namespace file bound in its exec root; unbound, the directory
    // can be deleted.
    Path namespace = daemon.directory().resolve("exec/netns/default");
    if (Files.exists(namespace)) {
      try {
        awaitExit(
            new ProcessBuilder("umount", namespace.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start(),
            "umount " + namespace);
      } catch (IOException | RuntimeException e) {
        // A leftover mount of an empty namespace file is harmless; the daemon is stopped.
      }
    }
    deleteQuietly(daemon.directory());
  }

  /**
   * Builds {@link #TEST_IMAGE} from the runtime image and the suite's host programs with their
   * libraries, copied in at the same paths (symbolic links kept as links).
   */
  private static void buildTestImage(Started daemon) throws IOException {
    Set<Path> files = new LinkedHashSet<>();
    for (String name : PROGRAMS) {
      for (String dir : List.of("/usr/bin", "/bin")) {
        Path program = Path.of(dir, name);
        if (Files.exists(program)) {
          files.add(program);
          files.addAll(libraries(program.toRealPath()));
          break;
        }
      }
    }
    for (Path tree : PERL_TREES) {
      if (Files.isDirectory(tree, LinkOption.NOFOLLOW_LINKS)) {
        try (Stream<Path> walk = Files.walk(tree)) {
          walk.forEach(files::add);
        }
      }
    }
    Map<String, Path> entries = new TreeMap<>();
    for (Path file : files) {
      addWithLinks(file, entries, 0);
    }
    Path context = daemon.directory().resolve("context.tar");
    try (OutputStream out = Files.newOutputStream(context);
        TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
      byte[] dockerfile =
          ("FROM " + LocalRuntimeImage.defaultTag() + "\nCOPY rootfs/ /\n").getBytes(StandardCharsets.UTF_8);
      TarArchiveEntry file = new TarArchiveEntry("Dockerfile");
      file.setSize(dockerfile.length);
      tar.putArchiveEntry(file);
      tar.write(dockerfile);
      tar.closeArchiveEntry();
      for (Map.Entry<String, Path> entry : entries.entrySet()) {
        Path path = entry.getValue();
        String name = "rootfs" + entry.getKey();
        if (Files.isSymbolicLink(path)) {
          TarArchiveEntry link = new TarArchiveEntry(name, TarArchiveEntry.LF_SYMLINK);
          link.setLinkName(Files.readSymbolicLink(path).toString());
          tar.putArchiveEntry(link);
        } else if (Files.isDirectory(path)) {
          TarArchiveEntry dir = new TarArchiveEntry(name + "/");
          dir.setMode(040755);
          tar.putArchiveEntry(dir);
        } else {
          TarArchiveEntry regular = new TarArchiveEntry(name);
          regular.setSize(Files.size(path));
          regular.setMode(Files.isExecutable(path) ? 0100755 : 0100644);
          tar.putArchiveEntry(regular);
          Files.copy(path, tar);
        }
        tar.closeArchiveEntry();
      }
    }
    try (DockerClient client = daemon.client();
        InputStream in = Files.newInputStream(context)) {
      client
          .buildImageCmd(in)
          .withTags(Set.of(TEST_IMAGE))
          .withPull(false)
          .withNoCache(false)
          .withNetworkMode("none")
          .exec(new BuildImageResultCallback())
          .awaitImageId(5, TimeUnit.MINUTES);
    }
  }

  /** Adds {@code path}, its parent directories, and, for a link, the link's target, recursively. */
  private static void addWithLinks(Path given, Map<String, Path> entries, int depth) throws IOException {
    if (depth > 16 || given.getNameCount() == 0 || !Files.exists(given, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    // Under its real parent: no entry may lie below a link (the image's own /lib, /bin links).
    Path parent = given.getParent().toRealPath();
    Path path = parent.resolve(given.getFileName());
    if (parent.getNameCount() > 0) {
      addWithLinks(parent, entries, depth + 1);
    }
    if (entries.putIfAbsent(path.toString(), path) != null) {
      return;
    }
    if (Files.isSymbolicLink(path)) {
      Path target = path.getParent().resolve(Files.readSymbolicLink(path)).normalize();
      addWithLinks(target, entries, depth + 1);
    }
  }

  /** The shared libraries {@code program} loads, as the dynamic loader lists them ({@code --list}). */
  private static List<Path> libraries(Path program) throws IOException {
    Path loader =
        Stream.of("/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1")
            .map(Path::of)
            .filter(Files::exists)
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no dynamic loader found"));
    Process process =
        new ProcessBuilder(loader.toString(), "--list", program.toString())
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    awaitExit(process, "ld.so --list " + program);
    List<Path> libraries = new ArrayList<>(List.of(loader));
    for (String line : output.lines().toList()) {
      for (String word : line.strip().split("\\s+")) {
        if (word.startsWith("/")) {
          libraries.add(Path.of(word));
        }
      }
    }
    return libraries;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static Path first(List<Path> candidates, String what) {
    return candidates.stream()
        .filter(Files::isExecutable)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no " + what + " at any of " + candidates));
  }

  private static int awaitExit(Process process, String what) {
    try {
      if (!process.waitFor(5, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IllegalStateException(what + " did not finish");
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + what, e);
    }
  }

  private static void deleteQuietly(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // A leftover temporary directory is harmless; the daemon is already stopped.
    }
  }

  /** Keys and certificates made with the openssl CLI, each through its own argv. */
  private record Certificates(Path openssl, Path directory) {

    void authority(String name, String subject) {
      run(
          "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
          "-subj", "/CN=" + subject,
          "-keyout", directory.resolve(name + "-key.pem").toString(),
          "-out", directory.resolve(name + ".pem").toString());
    }

    void signed(String authority, String name, String subject, String extensions) {
      Path ext = directory.resolve(name + ".ext");
      try {
        Files.writeString(ext, extensions);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      run(
          "req", "-newkey", "rsa:2048", "-nodes",
          "-subj", "/CN=" + subject,
          "-keyout", directory.resolve(name + "-key.pem").toString(),
          "-out", directory.resolve(name + ".csr").toString());
      run(
          "x509", "-req", "-days", "2",
          "-in", directory.resolve(name + ".csr").toString(),
          "-CA", directory.resolve(authority + ".pem").toString(),
          "-CAkey", directory.resolve(authority + "-key.pem").toString(),
          "-CAcreateserial",
          "-extfile", ext.toString(),
          "-out", directory.resolve(name + "-cert.pem").toString());
      try {
        Files.setPosixFilePermissions(
            directory.resolve(name + "-key.pem"),
            Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private void run(String... arguments) {
      List<String> argv = new ArrayList<>(List.of(openssl.toString()));
      argv.addAll(List.of(arguments));
      try {
        Process process =
            new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int status = awaitExit(process, "openssl " + arguments[0]);
        if (status != 0) {
          throw new IllegalStateException("openssl " + String.join(" ", arguments) + " failed: " + output);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
