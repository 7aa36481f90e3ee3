package dev.capability.backend.bwrap.internal;

import static dev.capability.backend.bwrap.internal.Sandboxes.MARKER;
import static dev.capability.backend.bwrap.internal.Sandboxes.newMarker;
import static dev.capability.backend.bwrap.internal.Sandboxes.openDirectory;
import static dev.capability.backend.bwrap.internal.Sandboxes.processesWithMarker;
import static dev.capability.backend.bwrap.internal.Sandboxes.script;
import static dev.capability.backend.bwrap.internal.Sandboxes.spec;
import static dev.capability.backend.bwrap.internal.Sandboxes.split;
import static dev.capability.backend.bwrap.internal.Sandboxes.system;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.backend.support.ProcTable;
import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attacks on real sandboxes. Each security promise of the backend is attacked from inside a
 * sandbox; where an attack is expected to fail, a control shows the attack itself works when the
 * promise is not in force, so no assertion passes for a trivial reason.
 */
class BwrapBackendTest {
  @TempDir Path tmp;

  private Path repo;
  private Path writable;
  private Path bin;
  private static final BackendGate GATE = Sandboxes.gate();
  private static ExecutionBackend backend;

  @BeforeAll
  static void createBackend() {
    backend = GATE.backend();
  }

  @AfterAll
  static void closeBackend() {
    GATE.close();
  }

  @BeforeEach
  void layout() {
    openDirectory(tmp);
    repo = openDirectory(tmp.resolve("repo"));
    writable = Sandboxes.writableBy(repo.resolve("out"), Sandboxes.identity());
    bin = openDirectory(tmp.resolve("bin"));
  }

  private LaunchResult sh(String body) {
    return backend.launch(shSpec(body).build());
  }

  private LaunchSpec.Builder shSpec(String body) {
    return spec(script(bin, body), repo).writableRoots(List.of(writable));
  }

  @Test
  void advertisesTheSandboxCapabilitiesItVerified() {
    assertThat(backend.capabilities())
        .contains(
            IsolationCapability.USER_NAMESPACE,
            IsolationCapability.PID_NAMESPACE,
            IsolationCapability.IPC_NAMESPACE,
            IsolationCapability.UTS_NAMESPACE,
            IsolationCapability.CGROUP_NAMESPACE,
            IsolationCapability.TREE_TERMINATION,
            IsolationCapability.READ_ONLY_ROOT,
            IsolationCapability.READ_ONLY_REPOSITORY,
            IsolationCapability.WRITABLE_SCOPE_ROOTS,
            IsolationCapability.HOST_SOCKETS_HIDDEN,
            IsolationCapability.CAPABILITY_DROP,
            IsolationCapability.NON_ROOT,
            IsolationCapability.SECCOMP)
        .doesNotContain(IsolationCapability.CPU_LIMIT);
    assertThat(backend.diagnostics()).containsKeys("bwrap", "identity", "termination", "SECCOMP");
  }

  @Test
  void neverRunsAsRealRoot() {
    LaunchResult result =
        sh(
            "id -u; id -g; id -G; touch out/written; grep -E '^(Uid|Gid|Groups):'"
                + " /proc/self/status");

    assertThat(result.exitCode()).hasValue(0);
    List<String> lines = result.stdout().text().lines().toList();
    SandboxIdentity identity = Sandboxes.identity();
    assertThat(lines.get(0)).isEqualTo(Integer.toString(identity.uid())).isNotEqualTo("0");
    assertThat(lines.get(1)).isEqualTo(Integer.toString(identity.gid()));
    assertThat(lines.get(2))
        .as("no supplementary groups")
        .isEqualTo(Integer.toString(identity.gid()));
    assertThat(owner(writable.resolve("written")))
        .as("files the sandbox writes belong to the sandbox's host uid")
        .isEqualTo(identity.uid())
        .isNotZero();
  }

  @Test
  void dropsToTheConfiguredUidWhenTheJvmIsRoot() throws IOException {
    assumeTrue(Sandboxes.jvmIsRoot(), "only a root JVM drops to a configured uid");
    try (BwrapBackend custom =
        Sandboxes.backend(Map.of("bwrap.uid", "40000", "bwrap.gid", "40001"))) {
      Path root = openDirectory(repo.resolve("custom"));
      Files.setAttribute(root, "unix:uid", 40000);
      LaunchResult result =
          custom.launch(
              spec(script(bin, "id -u; id -g; touch custom/mine"), repo)
                  .writableRoots(List.of(root))
                  .build());

      assertThat(result.stdout().text()).isEqualTo("40000\n40001\n");
      assertThat(owner(root.resolve("mine"))).isEqualTo(40000);
      assertThat(custom.diagnostics().get("identity")).contains("uid 40000");
    }
  }

  @Test
  void refusesAWritableRootTheSandboxUidCannotWrite() throws IOException {
    assumeTrue(Sandboxes.jvmIsRoot(), "a non-root JVM's sandboxes write as the JVM's own user");
    Path rootOwned = openDirectory(repo.resolve("root-owned"));

    assertThatThrownBy(
            () -> backend.launch(shSpec("true").writableRoots(List.of(rootOwned)).build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("writable root " + rootOwned)
        .hasMessageContaining("not writable by the sandbox's uid 65534")
        .hasMessageContaining("never widens permissions");
    assertThat(owner(rootOwned)).as("nothing was chowned").isZero();
  }

  @Test
  void writesOnlyInsideTheWritableRoots() throws IOException {
    Path outside = Files.writeString(tmp.resolve("outside.txt"), "host");
    Files.setPosixFilePermissions(
        outside, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
    Files.writeString(repo.resolve("tracked.txt"), "original");
    // A name no other process on the host uses, so the host's /tmp proves what the sandbox did.
    Path scratch = Path.of("/tmp", "capability-scratch-" + java.util.UUID.randomUUID());

    LaunchResult result =
        sh(
            "touch out/ok && echo inside-ok\n"
                + "echo changed > tracked.txt 2>/dev/null && echo repo-written\n"
                + "touch new-in-repo 2>/dev/null && echo repo-created\n"
                + "touch /rootfile 2>/dev/null && echo root-written\n"
                + "touch /usr/bin/planted 2>/dev/null && echo usr-written\n"
                + "touch /etc/planted 2>/dev/null && echo etc-written\n"
                + "touch /dev/planted 2>/dev/null && echo dev-written\n"
                + "echo changed > "
                + outside
                + " 2>/dev/null; echo outside-attempted\n"
                + "touch " + scratch + " && echo tmp-ok");

    assertThat(result.stdout().text().lines().toList())
        .containsExactly("inside-ok", "outside-attempted", "tmp-ok");
    assertThat(writable.resolve("ok")).exists();
    assertThat(repo.resolve("tracked.txt")).hasContent("original");
    assertThat(repo.resolve("new-in-repo")).doesNotExist();
    assertThat(outside).as("the host file outside every bind is untouched").hasContent("host");
    assertThat(scratch).as("the sandbox's /tmp is private").doesNotExist();
  }

  @Test
  void keepsAProtectedPathReadOnlyUnderAWritableRoot() throws IOException {
    Path git = Files.createDirectories(writable.resolve(".git"));
    Files.writeString(git.resolve("config"), "[core]");
    Files.setPosixFilePermissions(
        git, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.setPosixFilePermissions(
        git.resolve("config"),
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));

    LaunchResult result =
        backend.launch(
            shSpec(
                    "echo '[evil]' > out/.git/config 2>/dev/null && echo config-written\n"
                        + "rm -f out/.git/config 2>/dev/null; test -e out/.git/config && echo"
                        + " config-kept\n"
                        + "mv out/.git out/moved 2>/dev/null && echo moved\n"
                        + "touch out/.git/hook 2>/dev/null && echo created-inside\n"
                        + "touch out/sibling && echo sibling-ok")
                .protectedPaths(List.of(git))
                .build());

    assertThat(result.stdout().text().lines().toList())
        .containsExactly("config-kept", "sibling-ok");
    assertThat(git.resolve("config")).hasContent("[core]");
    assertThat(git.resolve("hook")).doesNotExist();
  }

  @Test
  void aRepositoryThatIsItsOwnWritableRootIsBoundTwiceByDescriptor() throws IOException {
    // The repository is bound read-only and then again read-write: two binds of one path, each
    // needing its own descriptor, since bwrap closes a descriptor once it has mounted it.
    Path both = Sandboxes.writableBy(tmp.resolve("both"), Sandboxes.identity());
    Files.createDirectories(both.resolve(".git"));
    LaunchResult result =
        backend.launch(
            spec(script(bin, "echo written > file && echo ok"), both)
                .writableRoots(List.of(both))
                .protectedPaths(List.of(both.resolve(".git")))
                .build());

    assertThat(result.stdout().text()).as(result.stderr().text()).isEqualTo("ok\n");
    assertThat(both.resolve("file")).hasContent("written");
  }

  @Test
  void noDescriptorOfABindSourceReachesTheCommand() throws IOException {
    // A descriptor of the repository handed to bwrap for --ro-bind-fd would, if it reached the
    // command, let it create files through the host's writable mount past the read-only bind.
    Path git = Files.createDirectories(writable.resolve(".git"));
    LaunchResult result =
        backend.launch(
            shSpec(
                    "for fd in /proc/self/fd/*; do echo \"${fd##*/} $(readlink $fd)\"; done\n"
                        + "for n in 3 4 5 6 7 8 9; do (echo x > /proc/self/fd/$n/planted) 2>/dev/null"
                        + " && echo planted-$n; done; true")
                .protectedPaths(List.of(git))
                .build());

    List<String> lines = result.stdout().text().lines().toList();
    assertThat(lines)
        .as("standard streams and the shell's own reading of /proc/self/fd only")
        .noneMatch(l -> l.contains(repo.toString()) || l.contains(writable.toString()))
        .noneMatch(l -> l.startsWith("planted-"));
    assertThat(repo.resolve("planted")).doesNotExist();
    assertThat(git.resolve("planted")).doesNotExist();
  }

  @Test
  void everyNestedDotGitUnderAWritableRootStaysReadOnly() throws IOException {
    java.nio.file.attribute.FileAttribute<?> open =
        java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
            java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    Path nested = Files.createDirectories(writable.resolve("deep/nested/.git/hooks"), open).getParent();
    Files.setPosixFilePermissions(
        nested, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    Path config = Files.writeString(nested.resolve("config"), "[core]\n");
    Files.setPosixFilePermissions(
        config, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
    Path gitDirectory = Files.createDirectories(writable.resolve("modules/sub"));
    Path gitDirectoryConfig = Files.writeString(gitDirectory.resolve("config"), "[core]\n");
    Path gitFile = Files.writeString(Files.createDirectories(writable.resolve("sub")).resolve(".git"),
        "gitdir: ../modules/sub\n");
    for (Path path : List.of(writable.resolve("deep"), writable.resolve("deep/nested"), writable.resolve("sub"),
        writable.resolve("modules"), gitDirectory)) {
      Files.setPosixFilePermissions(
          path, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    }
    for (Path file : List.of(gitDirectoryConfig, gitFile)) {
      Files.setPosixFilePermissions(
          file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
    }

    LaunchResult result =
        sh(
            "printf '[filter \"x\"]\\n\\tclean = touch /tmp/pwned\\n' >> out/deep/nested/.git/config"
                + " 2>/dev/null && echo config-written\n"
                + "touch out/deep/nested/.git/hooks/pre-commit 2>/dev/null && echo hook-planted\n"
                + "rm -rf out/deep/nested/.git 2>/dev/null; test -e out/deep/nested/.git/config && echo kept\n"
                + "mv out/deep/nested/.git out/deep/nested/moved 2>/dev/null && echo moved\n"
                + "echo 'gitdir: /tmp/evil' > out/sub/.git 2>/dev/null && echo gitfile-rewritten\n"
                + "echo '[evil]' >> out/modules/sub/config 2>/dev/null && echo gitdir-written\n"
                + "touch out/deep/nested/sibling && echo sibling-ok");

    assertThat(result.stdout().text().lines().toList()).containsExactly("kept", "sibling-ok");
    assertThat(config).hasContent("[core]");
    assertThat(nested.resolve("hooks/pre-commit")).doesNotExist();
    assertThat(gitFile).hasContent("gitdir: ../modules/sub");
    assertThat(gitDirectoryConfig).hasContent("[core]");
  }

  @Test
  void anAbsentProtectedPathCannotBeCreatedAndStaysAbsentAfterwards() throws IOException {
    Path hooks = writable.resolve(".git").resolve("hooks");
    Path preCommit = hooks.resolve("pre-commit");

    LaunchResult result =
        backend.launch(
            shSpec(
                    "mkdir -p out/.git/hooks 2>/dev/null && echo made-dirs\n"
                        + "echo pwn > out/.git 2>/dev/null && echo wrote-mask\n"
                        + "rm -rf out/.git 2>/dev/null; mv out/.git out/x 2>/dev/null && echo"
                        + " moved\n"
                        + "touch out/other && echo other-ok")
                .protectedPaths(List.of(preCommit))
                .build());

    assertThat(result.stdout().text().lines().toList()).containsExactly("other-ok");
    assertThat(writable.resolve(".git"))
        .as("the mask's placeholder was removed after the run")
        .doesNotExist();
    assertThat(writable.resolve("other")).exists();
  }

  @Test
  void hasNoNetworkUnlessTheSpecAsksForTheHosts() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      AtomicInteger accepted = new AtomicInteger();
      CompletableFuture.runAsync(
          () -> {
            while (!server.isClosed()) {
              try {
                server.accept().close();
                accepted.incrementAndGet();
              } catch (IOException e) {
                return;
              }
            }
          });
      String connect =
          "exec 3<>/dev/tcp/127.0.0.1/"
              + server.getLocalPort()
              + " && echo connected || echo refused";
      LaunchSpec.Builder spec =
          spec(script(bin, "/bin/bash", connect), repo).writableRoots(List.of(writable));

      LaunchResult isolated = backend.launch(spec.network(NetworkMode.NONE).build());
      assertThat(isolated.stdout().text()).isEqualTo("refused\n");
      assertThat(accepted).hasValue(0);

      LaunchResult host = backend.launch(spec.network(NetworkMode.HOST).build());
      assertThat(host.stdout().text())
          .as("control: the probe connects on the host network")
          .isEqualTo("connected\n");
    }
  }

  @Test
  void hostUnixSocketsCannotBeReachedByPath() throws IOException {
    Path sockets = openDirectory(tmp.resolve("sockets"));
    Path hostSocket = sockets.resolve("agent.sock");
    Path boundSocket = repo.resolve("in-repo.sock");
    try (ServerSocketChannel host = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        ServerSocketChannel bound = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      host.bind(UnixDomainSocketAddress.of(hostSocket));
      bound.bind(UnixDomainSocketAddress.of(boundSocket));
      Files.setPosixFilePermissions(
          hostSocket, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
      Files.setPosixFilePermissions(
          boundSocket, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
      String perl =
          "use IO::Socket::UNIX; print((IO::Socket::UNIX->new(Peer => $ARGV[0]) ? 'reached' :"
              + " 'unreachable') . \"\\n"
              + "\")";
      List<String> targets =
          List.of(
              hostSocket.toString(),
              "/run/docker.sock",
              "/var/run/dbus/system_bus_socket",
              boundSocket.toString());
      List<String> seen = new ArrayList<>();
      for (String target : targets) {
        LaunchResult result =
            backend.launch(
                spec(system("perl"), repo)
                    .arguments(List.of("-e", perl, target))
                    .network(NetworkMode.HOST)
                    .build());
        seen.add(result.stdout().text().strip());
      }

      assertThat(seen)
          .as("host sockets by path, then the control: a socket inside the bound repository")
          .containsExactly("unreachable", "unreachable", "unreachable", "reached");
    }
  }

  @Test
  void theLaunchersEnvironmentAndArgvCarryNoSecrets() throws Exception {
    String secret = "s3cret-" + newMarker();
    String marker = newMarker();
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("PATH", "/usr/bin:/bin");
    environment.put("API_TOKEN", secret);
    environment.put(MARKER, marker);
    CompletableFuture<LaunchResult> running =
        CompletableFuture.supplyAsync(
            () ->
                backend.launch(
                    shSpec("cat /proc/$$/environ; echo; sleep 3")
                        .environment(environment)
                        .build()));
    List<Long> inside = awaitProcesses(marker);
    assertThat(inside).as("the sandbox was found from the host").isNotEmpty();
    List<String> leaks = new ArrayList<>();
    try (var entries =
        Files.newDirectoryStream(
            Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
      for (Path entry : entries) {
        if (new String(readOrEmpty(entry.resolve("cmdline")), StandardCharsets.UTF_8)
            .contains(secret)) {
          leaks.add(entry.getFileName() + " cmdline");
        }
      }
    }
    long launcher = launcherOf(inside.get(0));
    byte[] launcherEnvironment = readOrEmpty(Path.of("/proc", Long.toString(launcher), "environ"));
    LaunchResult result = running.get(30, TimeUnit.SECONDS);

    assertThat(leaks).as("no host process shows the secret in its argv").isEmpty();
    assertThat(launcherEnvironment)
        .as("bwrap on the host runs with an empty environment")
        .isEmpty();
    List<String> pid1 =
        split(
            result.stdout().text().lines().findFirst().orElse("").getBytes(StandardCharsets.UTF_8));
    assertThat(pid1)
        .as("the command has exactly the spec's environment")
        .containsExactlyInAnyOrder(
            "PATH=/usr/bin:/bin", "API_TOKEN=" + secret, MARKER + "=" + marker);
  }

  @Test
  void programsAreNotHandedTheLoaderVariablesMeantForTheCommand() {
    LaunchResult result =
        backend.launch(
            spec(system("true"), repo)
                .environment(Map.of("LD_DEBUG", "libs", "PATH", "/usr/bin:/bin"))
                .build());

    String loaderLog = result.stderr().text();
    assertThat(loaderLog)
        .as("control: the loader of the command honoured LD_DEBUG")
        .contains("calling init");
    assertThat(loaderLog)
        .as("nothing of the unsandboxed launcher chain loaded with the command's LD_ variables")
        .doesNotContain("bwrap")
        .doesNotContain("setpriv")
        .doesNotContain("flock")
        .doesNotContain("prlimit");
  }

  @Test
  void hostProcessesAreInvisibleAndPidOneRevealsNothing() {
    LaunchResult result =
        backend.launch(
            shSpec(
                    "ls /proc | grep -E '^[0-9]+$' | sort -n | tr '\\n"
                        + "' ' '; echo; tr '\\0' ' ' < /proc/1/cmdline; echo; wc -c <"
                        + " /proc/1/environ")
                .environment(Map.of("PATH", "/usr/bin:/bin", "TOKEN", "t0ken"))
                .build());

    List<String> lines = result.stdout().text().lines().toList();
    List<Long> pids =
        java.util.Arrays.stream(lines.get(0).trim().split(" ")).map(Long::parseLong).toList();
    assertThat(pids)
        .as("only the sandbox's own processes")
        .allMatch(pid -> pid < 10)
        .contains(1L, 2L);
    assertThat(pids).doesNotContain(ProcessHandle.current().pid());
    assertThat(lines.get(1))
        .as("PID 1 is bwrap's init; its arguments hold no layout and no environment")
        .containsPattern("--args \\d+ ")
        .doesNotContain("--setenv", "t0ken", "--bind", repo.toString());
    assertThat(lines.get(2)).as("bwrap started with an empty environment").isEqualTo("0");
  }

  @Test
  void cannotWriteProcSysOrHoldAnyCapability() {
    LaunchResult result =
        sh(
            "echo pwned > /proc/sys/kernel/hostname 2>/dev/null && echo sysctl-written\n"
                + "echo c > /proc/sysrq-trigger 2>/dev/null && echo sysrq-written\n"
                + "grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs)' /proc/self/status\n"
                + "hostname");

    assertThat(result.stdout().text())
        .doesNotContain("written")
        .contains(
            "CapEff:\t0000000000000000",
            "CapBnd:\t0000000000000000",
            "CapPrm:\t0000000000000000",
            "CapAmb:\t0000000000000000",
            "CapInh:\t0000000000000000",
            "NoNewPrivs:\t1")
        .endsWith("sandbox\n");
  }

  @Test
  void hasNoControllingTerminalForTiocsti() {
    // Under Maven there may be no terminal at all; the session check holds either way: the
    // command leads a new session that has no controlling terminal, so /dev/tty cannot be opened.
    String perl = "open(T, '+<', '/dev/tty') or exit 3; ioctl(T, 0x5412, 'x') or exit 4; exit 0";
    LaunchResult tiocsti =
        backend.launch(spec(system("perl"), repo).arguments(List.of("-e", perl)).build());
    LaunchResult session =
        sh("set -- $(sed 's/.*) //' /proc/self/stat); echo \"session=$4 tty=$5\"");

    assertThat(tiocsti.exitCode()).as("TIOCSTI attempt").hasValue(3);
    assertThat(session.stdout().text())
        .as("the session of bwrap's init, inside the sandbox, without a terminal")
        .isEqualTo("session=1 tty=0\n");
  }

  @Test
  void nestedUserNamespacesAreRefused() {
    assumeTrue(backend.capabilities().contains(IsolationCapability.NO_NESTED_USER_NAMESPACES));
    LaunchResult result = sh("unshare -U true && echo nested || echo refused; id -u");

    assertThat(result.stdout().text().lines().findFirst()).hasValue("refused");
    assertThat(result.stdout().text()).as("control: the shell itself ran").contains("\n");
  }

  @Test
  void refusesABindSourcePlantedAsASymlinkByAnEarlierRun() throws IOException {
    Path secrets = openDirectory(tmp.resolve("host-secrets"));
    Files.writeString(secrets.resolve("key"), "secret");
    LaunchResult planting = sh("ln -s " + secrets + " out/next-root && echo planted");
    assertThat(planting.stdout().text()).isEqualTo("planted\n");
    Path planted = writable.resolve("next-root");
    assertThat(Files.isSymbolicLink(planted)).isTrue();

    assertThatThrownBy(
            () ->
                backend.launch(shSpec("cat next-root/key").writableRoots(List.of(planted)).build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("is or passes through the symlink " + planted);
    Path through = planted.resolve("sub");
    assertThatThrownBy(
            () -> backend.launch(shSpec("true").writableRoots(List.of(writable, through)).build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("passes through the symlink " + planted);
    assertThatThrownBy(
            () -> backend.launch(shSpec("true").protectedPaths(List.of(planted)).build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("symlink");
  }

  @Test
  void refusesToExposeHomesRootTmpAndRuntimeDirectories() {
    List<Path> refused =
        List.of(
            Path.of("/"),
            Path.of("/tmp"),
            Path.of("/root"),
            Path.of("/home"),
            Path.of("/run/user"),
            Path.of("/proc/1"));
    for (Path path : refused) {
      assertThatThrownBy(
              () -> backend.launch(spec(system("true"), repo).writableRoots(List.of(path)).build()))
          .as("writable root %s", path)
          .isInstanceOf(LaunchFailedException.class)
          .hasMessageContaining(path.toString());
    }
    assertThatThrownBy(() -> backend.launch(spec(system("true"), Path.of("/usr")).build()))
        .as("a repository that contains a system directory")
        .isInstanceOf(LaunchFailedException.class);
  }

  @Test
  void showsAWorkingDirectoryOutsideTheRepositoryReadOnly() throws IOException {
    Path elsewhere = openDirectory(tmp.resolve("elsewhere"));
    Files.writeString(elsewhere.resolve("file"), "visible");

    LaunchResult result =
        backend.launch(
            shSpec("pwd; cat file; touch new 2>/dev/null && echo written")
                .workingDirectory(elsewhere)
                .build());

    assertThat(result.stdout().text()).isEqualTo(elsewhere + "\nvisible");
    assertThat(elsewhere.resolve("new")).doesNotExist();
  }

  @Test
  void timeoutEndsEveryProcessIncludingDaemonsThatLeftTheTree() throws Exception {
    String marker = newMarker();
    LaunchSpec spec =
        shSpec(
                "trap '' TERM\n"
                    + "(trap '' TERM; sleep 1000) &\n"
                    + "setsid sh -c 'trap \"\" TERM; sleep 1000' &\n"
                    + "sh -c '(setsid sleep 1000 &)'\n"
                    + "echo started\n"
                    + "sleep 1000")
            .environment(Map.of("PATH", "/usr/bin:/bin", MARKER, marker))
            .timeout(Duration.ofSeconds(2))
            .terminationGrace(Duration.ofMillis(200))
            .build();

    CompletableFuture<LaunchResult> running =
        CompletableFuture.supplyAsync(() -> backend.launch(spec));
    assertThat(awaitProcesses(marker))
        .as("the sandbox's processes were visible from the host")
        .isNotEmpty();
    LaunchResult result = running.get(30, TimeUnit.SECONDS);

    assertThat(result.timedOut()).isTrue();
    assertThat(result.stdout().text()).isEqualTo("started\n");
    assertThat(result.termination())
        .isIn(SandboxTerminator.CGROUP_KILL, SandboxTerminator.PID_NAMESPACE);
    assertThat(result.exitCode()).hasValue(128 + 9);
    assertThat(processesWithMarker(marker)).as("nothing survived").isEmpty();
  }

  @Test
  void aCommandThatExitsLeavesNoDaemonBehind() throws Exception {
    String marker = newMarker();
    LaunchResult result =
        backend.launch(
            shSpec("setsid sh -c 'sleep 1000' & (sleep 1000 &) ; echo spawned; exit 7")
                .environment(Map.of("PATH", "/usr/bin:/bin", MARKER, marker))
                .build());

    assertThat(result.exitCode()).hasValue(7);
    assertThat(result.termination()).isEqualTo(SandboxTerminator.NONE);
    assertThat(processesWithMarker(marker))
        .as("when PID 1 exits the kernel ends its namespace before bwrap exits")
        .isEmpty();
  }

  @Test
  void withoutACgroupTimeoutsEndThePidNamespace() throws Exception {
    try (BwrapBackend plain = Sandboxes.backend(Map.of("bwrap.cgroup", "none"))) {
      String marker = newMarker();
      LaunchResult result =
          plain.launch(
              spec(
                      script(
                          bin,
                          "trap '' TERM; setsid sh -c 'trap \"\" TERM; sleep 1000' & sleep 1000"),
                      repo)
                  .environment(Map.of("PATH", "/usr/bin:/bin", MARKER, marker))
                  .timeout(Duration.ofMillis(1500))
                  .terminationGrace(Duration.ofMillis(100))
                  .build());

      assertThat(result.timedOut()).isTrue();
      assertThat(result.termination()).isEqualTo(SandboxTerminator.PID_NAMESPACE);
      assertThat(processesWithMarker(marker)).isEmpty();
      assertThat(plain.diagnostics().get("termination")).startsWith("pid-namespace");
    }
  }

  @Test
  void aCommandThatHandlesTermGetsItsGracePeriod() {
    LaunchResult result =
        backend.launch(
            shSpec("trap 'echo got-term; exit 3' TERM; echo ready; while true; do sleep 0.05; done")
                .timeout(Duration.ofSeconds(1))
                .terminationGrace(Duration.ofSeconds(5))
                .build());

    assertThat(result.timedOut()).isTrue();
    assertThat(result.stdout().text()).isEqualTo("ready\ngot-term\n");
    assertThat(result.exitCode()).hasValue(3);
  }

  @Test
  void boundsOutputAndEndsAFlood() {
    LaunchResult result =
        backend.launch(
            spec(system("yes"), repo)
                .maxOutputBytes(10_000)
                .timeout(Duration.ofSeconds(30))
                .build());

    assertThat(result.outputLimitHit()).isTrue();
    assertThat(result.stdout().size()).isEqualTo(10_000);
    assertThat(result.stdout().truncated()).isTrue();
    assertThat(result.timedOut()).isFalse();
  }

  @Test
  void passesArgumentsEnvironmentAndStdinExactly() {
    List<String> awkward =
        List.of("two words", "", "'q'", "\"d\"", "$HOME", "--", "-c", "line\nbreak", "--args");
    LaunchResult argv =
        backend.launch(spec(system("printf"), repo).arguments(concat("%s\\0", awkward)).build());
    assertThat(split(argv.stdout().bytes())).containsExactlyElementsOf(awkward);

    Map<String, String> environment =
        Map.of("PATH", "/usr/bin:/bin", "EMPTY", "", "SPACED", "a b\nc", "EQ", "x=y");
    LaunchResult env =
        backend.launch(
            spec(system("env"), repo).arguments(List.of("-0")).environment(environment).build());
    List<String> expected = new ArrayList<>();
    environment.forEach((k, v) -> expected.add(k + "=" + v));
    assertThat(split(env.stdout().bytes())).containsExactlyInAnyOrderElementsOf(expected);

    LaunchResult closed = backend.launch(spec(system("cat"), repo).build());
    assertThat(closed.stdout().size()).isZero();
    assertThat(closed.exitCode()).hasValue(0);
    byte[] input = "line one\nline two\n".repeat(5000).getBytes(StandardCharsets.UTF_8);
    LaunchResult given = backend.launch(spec(system("cat"), repo).stdin(input).build());
    assertThat(given.stdout().bytes()).isEqualTo(input);
  }

  @Test
  void passesUnicodeExactlyUnderAUtf8Locale() {
    assumeTrue(
        "UTF-8".equals(System.getProperty("sun.jnu.encoding")),
        "the JVM's platform charset is not UTF-8");
    LaunchResult result =
        backend.launch(
            spec(system("printf"), repo)
                .arguments(List.of("%s\\0%s\\0", "ünï ✓", "日本"))
                .environment(Map.of("UNI", "ü ✓"))
                .build());
    LaunchResult env =
        backend.launch(spec(system("env"), repo).environment(Map.of("UNI", "ü ✓")).build());

    assertThat(split(result.stdout().bytes())).containsExactly("ünï ✓", "日本");
    assertThat(env.stdout().text()).isEqualTo("UNI=ü ✓\n");
  }

  @Test
  void reportsExitStatusesAndSignals() {
    assertThat(sh("exit 0").exitCode()).hasValue(0);
    assertThat(sh("exit 42").exitCode()).hasValue(42);
    assertThat(sh("sh -c 'kill -SEGV $$'; echo $?").stdout().text()).isEqualTo("139\n");
    assertThat(sh("sh -c 'kill -KILL $$'; echo $?").stdout().text()).isEqualTo("137\n");
  }

  @Test
  void refusesARequiredCapabilityItLacksBeforeLaunching() throws IOException {
    LaunchSpec spec =
        shSpec("touch out/ran").requiredCapabilities(Set.of(IsolationCapability.CPU_LIMIT)).build();

    assertThatThrownBy(() -> backend.launch(spec))
        .isInstanceOf(BackendUnavailableException.class)
        .extracting(e -> ((BackendUnavailableException) e).code())
        .isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE);
    assertThat(writable.resolve("ran")).doesNotExist();
  }

  @Test
  void refusesAnExecutableWhoseBytesChangedAfterHashing() throws IOException {
    PinnedExecutable pinned = script(bin, "echo honest");
    Files.writeString(pinned.path(), "#!/bin/sh\necho evil\n");

    assertThatThrownBy(() -> backend.launch(spec(pinned, repo).build()))
        .isInstanceOf(LaunchFailedException.class)
        .hasMessageContaining("changed after it was hashed");
  }

  @Test
  void theExecutableRunsAtItsCanonicalPathAndCannotBeModified() throws IOException {
    Path readlink = bin.resolve("my-readlink");
    Files.copy(system("readlink").path(), readlink);
    LaunchResult exe =
        backend.launch(
            spec(Sandboxes.pinned(readlink), repo).arguments(List.of("/proc/self/exe")).build());
    PinnedExecutable script =
        script(
            bin,
            "echo \"$0\"; echo x >> \"$0\" 2>/dev/null && echo modified; chmod 777 \"$0\""
                + " 2>/dev/null && echo chmodded; true");
    LaunchResult self = backend.launch(spec(script, repo).build());

    assertThat(exe.stdout().text())
        .as("/proc/self/exe names the real path")
        .isEqualTo(readlink + "\n");
    assertThat(self.stdout().text()).isEqualTo(script.path() + "\n");
  }

  @Test
  void limitsTheSizeOfThePrivateTmp() {
    assumeTrue(backend.capabilities().contains(IsolationCapability.PRIVATE_TMP));
    try (BwrapBackend small = Sandboxes.backend(Map.of("bwrap.tmp-size", "1M"))) {
      LaunchResult result =
          small.launch(
              spec(
                      script(
                          bin,
                          "head -c 2000000 /dev/zero > /tmp/big 2>/dev/null || echo full; wc -c <"
                              + " /tmp/big"),
                      repo)
                  .build());

      assertThat(result.stdout().text()).isEqualTo("full\n1048576\n");
    }
  }

  @Test
  void appliesConfiguredRlimitsToTheWholeSandbox() {
    try (BwrapBackend limited =
        Sandboxes.backend(Map.of("bwrap.limit.open-files", "64", "bwrap.limit.file-size", "1M"))) {
      LaunchResult result =
          limited.launch(
              spec(
                      script(
                          bin,
                          "ulimit -n; sh -c 'ulimit -n'; head -c 2000000 /dev/zero > out/f"
                              + " 2>/dev/null; wc -c < out/f"),
                      repo)
                  .writableRoots(List.of(writable))
                  .build());

      assertThat(result.stdout().text()).isEqualTo("64\n64\n1048576\n");
    }
  }

  @Test
  void memoryAndProcessLimitsNeedTheirCgroupControllers() {
    Map<String, String> settings = Map.of("bwrap.limit.memory", "256M", "bwrap.limit.pids", "64");
    BwrapBackend limited;
    try {
      limited = Sandboxes.backend(settings);
    } catch (BackendUnavailableException e) {
      assertThat(e.getMessage()).containsAnyOf("memory", "pids", "cgroup");
      assertThat(e.code()).isEqualTo(BackendUnavailableException.UNAVAILABLE);
      return;
    }
    try (limited) {
      // The attacks on these limits are in BwrapResourceLimitTest.
      assertThat(limited.capabilities())
          .contains(IsolationCapability.MEMORY_LIMIT, IsolationCapability.PID_LIMIT);
    }
  }

  @Test
  void runsTheSandboxInARunCgroupWhenCgroupsAreWritable() throws Exception {
    assumeTrue(
        backend.diagnostics().get("termination").startsWith("cgroup-kill"),
        "no writable cgroup v2 here");
    LaunchResult result = sh("grep '^0::' /proc/self/cgroup");

    assertThat(result.stdout().text())
        .as("bwrap was in the run cgroup before it created the sandbox's cgroup namespace")
        .isEqualTo("0::/\n");
  }

  private List<Long> awaitProcesses(String marker) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    List<Long> found = processesWithMarker(marker);
    while (found.isEmpty() && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
      found = processesWithMarker(marker);
    }
    return found;
  }

  /** The bwrap process above a sandbox process. */
  private static long launcherOf(long pid) {
    long current = pid;
    while (current > 1) {
      long parent = ProcTable.read(current).orElseThrow().ppid();
      String comm =
          new String(
                  readOrEmpty(Path.of("/proc", Long.toString(parent), "comm")),
                  StandardCharsets.UTF_8)
              .strip();
      if (comm.equals("bwrap")) {
        return parent;
      }
      current = parent;
    }
    throw new AssertionError("no bwrap above " + pid);
  }

  private static byte[] readOrEmpty(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      return new byte[0];
    }
  }

  private static int owner(Path path) {
    try {
      return (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static List<String> concat(String first, List<String> rest) {
    List<String> all = new ArrayList<>();
    all.add(first);
    all.addAll(rest);
    return all;
  }
}
