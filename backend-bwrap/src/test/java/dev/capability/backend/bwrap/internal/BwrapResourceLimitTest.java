package dev.capability.backend.bwrap.internal;

import static dev.capability.backend.bwrap.internal.Sandboxes.openDirectory;
import static dev.capability.backend.bwrap.internal.Sandboxes.script;
import static dev.capability.backend.bwrap.internal.Sandboxes.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.ResourceBound;
import dev.capability.testing.RequiredBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resource attacks from inside real sandboxes with memory and process limits configured: a fork
 * bomb, a large allocation and a huge file. Each runs with a control where the limit is absent or
 * larger, so no assertion passes because the attack itself failed.
 */
class BwrapResourceLimitTest {
  private static final Map<String, String> LIMITS =
      Map.of("bwrap.limit.memory", "64M", "bwrap.limit.pids", "64", "bwrap.limit.cpus", "0.25");

  @TempDir Path tmp;

  private Path repo;
  private Path writable;
  private Path bin;

  @BeforeEach
  void layout() {
    try (BackendGate gate = Sandboxes.gate()) {
      gate.backend();
    }
    openDirectory(tmp);
    repo = openDirectory(tmp.resolve("repo"));
    writable = Sandboxes.writableBy(repo.resolve("out"), Sandboxes.identity());
    bin = openDirectory(tmp.resolve("bin"));
  }

  /**
   * A backend with memory and process limits; skips where cgroups cannot be written (no delegated
   * cgroup v2, and not root for cgroup v1) unless every backend is required.
   */
  private static BwrapBackend limited() {
    try {
      return Sandboxes.backend(LIMITS);
    } catch (BackendUnavailableException e) {
      return RequiredBackends.skipOrFail("memory and process limits are not available here: " + e.getMessage());
    }
  }

  @Test
  void advertisesTheConfiguredLimitsAndByDefaultAProcessLimitAndHalfTheHostsMemory() {
    try (BwrapBackend limited = limited();
        BwrapBackend plain = Sandboxes.backend(Map.of())) {
      long half = BwrapSettings.defaultMemoryBytes().orElseThrow();
      assertThat(plain.capabilities())
          .contains(IsolationCapability.PID_LIMIT, IsolationCapability.MEMORY_LIMIT);
      assertThat(plain.diagnostics().get("PID_LIMIT"))
          .isEqualTo("pids.max " + BwrapSettings.DEFAULT_PIDS + " per run");
      assertThat(plain.diagnostics().get("MEMORY_LIMIT"))
          .startsWith("memory.max " + half + " bytes per run (the default");
      assertThat(limited.capabilities())
          .contains(
              IsolationCapability.MEMORY_LIMIT,
              IsolationCapability.PID_LIMIT,
              IsolationCapability.CPU_LIMIT);
      assertThat(plain.capabilities()).doesNotContain(IsolationCapability.CPU_LIMIT);
      assertThat(limited.diagnostics().get("PID_LIMIT")).isEqualTo("pids.max 64 per run");
      assertThat(limited.diagnostics().get("CPU_LIMIT"))
          .isEqualTo("cpu.max 25000 100000 per run (0.25 CPUs)");
    }
  }

  @Test
  void aSpecRequiringAMemoryLimitIsRefusedWithoutRunCgroups() {
    try (BwrapBackend plain = Sandboxes.backend(Map.of(BwrapSettings.CGROUP, "none"))) {
      assertThatThrownBy(
              () ->
                  plain.launch(
                      spec(script(bin, "touch out/ran"), repo)
                          .writableRoots(List.of(writable))
                          .requiredCapabilities(Set.of(IsolationCapability.MEMORY_LIMIT))
                          .build()))
          .isInstanceOfSatisfying(
              BackendUnavailableException.class,
              e ->
                  assertThat(e.code())
                      .isEqualTo(BackendUnavailableException.ISOLATION_UNAVAILABLE))
          .hasMessageContaining("MEMORY_LIMIT");
      assertThat(writable.resolve("ran")).doesNotExist();
    }
  }

  @Test
  void aForkBombCannotStartMoreProcessesThanThePidsLimit() throws Exception {
    // Each started process is counted with builtins only, in a file the host reads afterwards,
    // since the shell itself may die when its fork is refused.
    String bomb =
        "i=0; while [ $i -lt 600 ]; do sleep 30 & i=$((i+1)); echo $i > out/started; done";
    try (BwrapBackend plain = Sandboxes.backend(Map.of());
        BwrapBackend limited = limited()) {
      plain.launch(
          spec(script(bin, bomb), repo)
              .writableRoots(List.of(writable))
              .timeout(Duration.ofSeconds(60))
              .build());
      String control = Files.readString(writable.resolve("started"));
      Files.delete(writable.resolve("started"));
      LaunchResult attack =
          limited.launch(
              spec(script(bin, bomb), repo)
                  .writableRoots(List.of(writable))
                  .timeout(Duration.ofSeconds(60))
                  .build());

      assertThat(control).as("without a limit all 600 start").isEqualTo("600\n");
      assertThat(Integer.parseInt(Files.readString(writable.resolve("started")).strip()))
          .as("the run's cgroup holds at most 64 processes, the shell among them: " + attack)
          .isLessThan(64)
          .isPositive();
      assertThat(attack.timedOut()).isFalse();
      assertThat(attack.boundsHit())
          .as("a refused fork is reported")
          .contains(ResourceBound.PROCESSES);
    }
  }

  @Test
  void aRunThatStaysBelowThePidsLimitReportsNoProcessBound() {
    try (BwrapBackend limited = limited()) {
      LaunchResult result =
          limited.launch(
              spec(script(bin, "sleep 0 & sleep 0 & wait; echo done"), repo)
                  .timeout(Duration.ofSeconds(60))
                  .build());

      assertThat(result.stdout().text()).isEqualTo("done\n");
      assertThat(result.boundsHit()).isEmpty();
    }
  }

  @Test
  void aCommandEndedBySigxfszIsReportedAsTheFileSizeBound() throws Exception {
    try (BwrapBackend plain = Sandboxes.backend(Map.of())) {
      LaunchResult control =
          plain.launch(
              spec(script(bin, "exec head -c 2097152 /dev/zero > out/big"), repo)
                  .writableRoots(List.of(writable))
                  .maxFileBytes(10L << 20)
                  .build());
      LaunchResult big =
          plain.launch(
              spec(script(bin, "exec head -c 20971520 /dev/zero > out/big"), repo)
                  .writableRoots(List.of(writable))
                  .maxFileBytes(10L << 20)
                  .build());
      LaunchResult sparse =
          plain.launch(
              spec(script(bin, "exec truncate -s 1T out/sparse"), repo)
                  .writableRoots(List.of(writable))
                  .maxFileBytes(10L << 20)
                  .build());

      assertThat(control.exitCode()).hasValue(0);
      assertThat(control.boundsHit()).isEmpty();
      assertThat(big.exitCode()).hasValue(128 + 25);
      assertThat(big.boundsHit()).containsExactly(ResourceBound.FILE_SIZE);
      assertThat(Files.size(writable.resolve("big"))).isEqualTo(10L << 20);
      assertThat(sparse.exitCode()).hasValue(128 + 25);
      assertThat(sparse.boundsHit()).containsExactly(ResourceBound.FILE_SIZE);
      assertThat(Files.size(writable.resolve("sparse"))).isZero();
    }
  }

  @Test
  void writingPastTheWriteBudgetEndsTheSandboxAndIsReported() throws Exception {
    // 200 MiB into a writable root with a 50 MiB budget; the command then waits, so only the
    // budget can end it before its timeout.
    String writer =
        "head -c " + (200L << 20) + " /dev/zero > out/big; echo written; exec sleep 120";
    String marker = Sandboxes.newMarker();
    try (BwrapBackend plain = Sandboxes.backend(Map.of())) {
      LaunchResult control =
          plain.launch(
              spec(script(bin, "head -c " + (10L << 20) + " /dev/zero > out/small"), repo)
                  .writableRoots(List.of(writable))
                  .maxWriteBytes(50L << 20)
                  .build());
      LaunchResult attack =
          plain.launch(
              spec(script(bin, writer), repo)
                  .writableRoots(List.of(writable))
                  .maxWriteBytes(50L << 20)
                  .environment(Map.of("PATH", "/usr/bin:/bin", Sandboxes.MARKER, marker))
                  .timeout(Duration.ofMinutes(5))
                  .build());

      assertThat(control.exitCode()).hasValue(0);
      assertThat(control.boundsHit()).isEmpty();
      assertThat(attack.boundsHit()).as(attack.toString()).contains(ResourceBound.WRITE_BUDGET);
      assertThat(attack.timedOut()).isFalse();
      assertThat(attack.termination()).isNotEqualTo("none");
      assertThat(Sandboxes.processesWithMarker(marker)).isEmpty();
    }
  }

  @Test
  void fiftyThousandFilesInTmpAreBoundedByTheRunsMemoryLimit() {
    // tmpfs has no inode limit bwrap can set, but every inode and dentry is kernel memory charged
    // to the run's memory cgroup: about 1 KiB per empty file.
    String files =
        "cd /tmp && i=0; while [ $i -lt 100000 ]; do : > f$i || exit 3; i=$((i+1)); done; echo $i";
    try (BwrapBackend plain = Sandboxes.backend(Map.of());
        BwrapBackend limited = limited()) {
      LaunchResult control =
          plain.launch(
              spec(script(bin, files.replace("100000", "50000")), repo)
                  .timeout(Duration.ofMinutes(5))
                  .build());
      LaunchResult attack =
          limited.launch(spec(script(bin, files), repo).timeout(Duration.ofMinutes(5)).build());

      assertThat(control.stdout().text())
          .as("without a memory limit they fit")
          .isEqualTo("50000\n");
      assertThat(attack.stdout().text()).doesNotContain("100000");
      assertThat(attack.boundsHit()).as(attack.toString()).contains(ResourceBound.MEMORY);
      assertThat(attack.timedOut()).isFalse();
    }
  }

  @Test
  void aForkBombUnderTheDefaultSettingsStopsAtTheDefaultProcessLimit() throws Exception {
    String bomb =
        "i=0; while [ $i -lt 1500 ]; do sleep 60 & i=$((i+1)); echo $i > out/started; done";
    limited().close();
    try (BwrapBackend plain = Sandboxes.backend(Map.of())) {
      LaunchResult attack =
          plain.launch(
              spec(script(bin, bomb), repo)
                  .writableRoots(List.of(writable))
                  .timeout(Duration.ofSeconds(60))
                  .build());

      assertThat(Integer.parseInt(Files.readString(writable.resolve("started")).strip()))
          .as("the run's cgroup holds at most the default number of processes: " + attack)
          .isLessThan((int) BwrapSettings.DEFAULT_PIDS)
          .isGreaterThan(600);
    }
  }

  @Test
  void anAllocationBeyondTheMemoryLimitIsKilledAndReportedAsTheMemoryLimit() {
    // The shell keeps a command substitution's whole output in its own memory.
    String allocate =
        "x=$(head -c " + (200L << 20) + " /dev/zero | tr '\\0' a); echo ${#x}";
    String small = "x=$(head -c " + (8L << 20) + " /dev/zero | tr '\\0' a); echo ${#x}";
    try (BwrapBackend limited = limited()) {
      LaunchResult control =
          limited.launch(spec(script(bin, small), repo).timeout(Duration.ofSeconds(60)).build());
      LaunchResult attack =
          limited.launch(spec(script(bin, allocate), repo).timeout(Duration.ofSeconds(60)).build());

      assertThat(control.stdout().text()).isEqualTo((8L << 20) + "\n");
      assertThat(control.memoryLimitHit()).isFalse();
      assertThat(attack.memoryLimitHit()).isTrue();
      assertThat(attack.stdout().text()).doesNotContain(Long.toString(200L << 20));
      assertThat(attack.timedOut()).isFalse();
    }
  }

  @Test
  void aFileCannotGrowBeyondTheSpecsMaxFileBytes() throws Exception {
    String writer =
        "trap '' XFSZ; head -c 20971520 /dev/zero > out/big 2>/dev/null; echo $?;"
            + " truncate -s 1T out/sparse 2>/dev/null; echo $?; ulimit -f";
    try (BwrapBackend plain = Sandboxes.backend(Map.of())) {
      LaunchResult control =
          plain.launch(
              spec(script(bin, writer), repo)
                  .writableRoots(List.of(writable))
                  .maxFileBytes(1L << 40)
                  .build());
      long controlSize = Files.size(writable.resolve("big"));
      long controlSparse = Files.size(writable.resolve("sparse"));
      Files.delete(writable.resolve("big"));
      Files.delete(writable.resolve("sparse"));
      LaunchResult attack =
          plain.launch(
              spec(script(bin, writer), repo)
                  .writableRoots(List.of(writable))
                  .maxFileBytes(10L << 20)
                  .build());

      assertThat(control.stdout().text()).isEqualTo("0\n0\n" + ((1L << 40) / 512) + "\n");
      assertThat(List.of(controlSize, controlSparse)).containsExactly(20L << 20, 1L << 40);
      assertThat(attack.stdout().text()).isEqualTo("1\n1\n" + ((10L << 20) / 512) + "\n");
      assertThat(Files.size(writable.resolve("big"))).isEqualTo(10L << 20);
      assertThat(Files.size(writable.resolve("sparse"))).isZero();
    }
  }

  @Test
  void everyProcessOfTheRunIsInACgroupWithTheCpuQuota() throws Exception {
    String marker = Sandboxes.newMarker();
    try (BwrapBackend limited = limited()) {
      // A child of the command, so the quota is seen to hold for processes the command starts.
      CompletableFuture<LaunchResult> run =
          CompletableFuture.supplyAsync(
              () ->
                  limited.launch(
                      spec(
                              script(
                                  bin,
                                  "sh -c 'while [ ! -e out/done ]; do sleep 0.05; done' & wait"),
                              repo)
                          .writableRoots(List.of(writable))
                          .environment(
                              Map.of("PATH", "/usr/bin:/bin", Sandboxes.MARKER, marker))
                          .timeout(Duration.ofSeconds(60))
                          .build()));
      List<Long> processes = Sandboxes.processesWithMarker(marker);
      while (processes.size() < 2 && !run.isDone()) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        processes = Sandboxes.processesWithMarker(marker);
      }
      List<String> quotas = new ArrayList<>();
      for (long pid : processes) {
        try {
          quotas.add(cpuQuota(pid));
        } catch (java.nio.file.NoSuchFileException e) {
          // One of the loop's short sleeps ended in between; the long-lived shells remain.
        }
      }
      Files.writeString(writable.resolve("done"), "");

      assertThat(run.get().exitCode()).hasValue(0);
      assertThat(quotas).hasSizeGreaterThanOrEqualTo(2).containsOnly("25000 100000");
    }
  }

  /** The CPU quota and period of the cgroup {@code pid} is in, from cgroup v1 or v2. */
  private static String cpuQuota(long pid) throws Exception {
    Optional<Path> legacy = LegacyCgroups.of(Long.toString(pid), "cpu");
    if (legacy.isPresent() && Files.exists(legacy.get().resolve("cpu.cfs_quota_us"))) {
      return Files.readString(legacy.get().resolve("cpu.cfs_quota_us")).strip()
          + " "
          + Files.readString(legacy.get().resolve("cpu.cfs_period_us")).strip();
    }
    String v2Path = "";
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"))) {
      if (line.startsWith("0::")) {
        v2Path = line.substring(3);
      }
    }
    for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
      String[] fields = line.split(" ");
      if (line.contains(" - cgroup2 ") && fields[3].equals("/")) {
        Path cpuMax = Path.of(fields[4] + v2Path, "cpu.max");
        if (Files.exists(cpuMax)) {
          return Files.readString(cpuMax).strip();
        }
      }
    }
    return "none";
  }

  @Test
  void theRunCgroupsAreRemovedAfterTheRun() throws Exception {
    try (BwrapBackend limited = limited()) {
      List<Path> parents =
          limited.diagnostics().get("cgroup").contains("v1 at")
              ? List.of(
                  LegacyCgroups.own("pids").orElseThrow(),
                  LegacyCgroups.own("memory").orElseThrow(),
                  LegacyCgroups.own("cpu").orElseThrow())
              : List.of();
      // This JVM's own, compared with what was there before.
      Set<Path> before = runCgroups(parents);

      LaunchResult result =
          limited.launch(spec(script(bin, "cat /proc/self/cgroup"), repo).build());

      assertThat(result.exitCode()).hasValue(0);
      assertThat(runCgroups(parents)).isSubsetOf(before);
    }
  }

  @Test
  void aDeadJvmsRunCgroupsAreRemovedWhenTheNextBackendStartsAndALiveOnesAreKept() throws Exception {
    List<Path> parents;
    try (BwrapBackend first = limited()) {
      parents = new ArrayList<>(List.of(CgroupParent.ownCgroupDirectory().orElseThrow()));
      if (first.diagnostics().get("cgroup").contains("v1 at")) {
        parents.add(LegacyCgroups.own("pids").orElseThrow());
      }
    }
    // What a SIGKILLed JVM leaves: run cgroups named for a process that is gone.
    Process gone = new ProcessBuilder("/bin/true").start();
    gone.waitFor();
    long goneStarted = 1L; // the process is gone, so any start time names a dead JVM
    String deadName = "capability-run-" + gone.pid() + "-" + goneStarted + "-" + UUID.randomUUID();
    String liveName = JvmStamp.name("capability-run-");
    List<Path> dead = new ArrayList<>();
    List<Path> live = new ArrayList<>();
    for (Path parent : parents) {
      dead.add(Files.createDirectory(parent.resolve(deadName)));
      live.add(Files.createDirectory(parent.resolve(liveName)));
    }
    try {
      // Creating a backend probes the cgroup parent, which removes what dead JVMs left.
      limited().close();

      for (Path leftover : dead) {
        assertThat(leftover).doesNotExist();
      }
      for (Path inUse : live) {
        assertThat(inUse).as("a live JVM's run cgroup").isDirectory();
      }
    } finally {
      for (Path path : live) {
        Files.deleteIfExists(path);
      }
      for (Path path : dead) {
        Files.deleteIfExists(path);
      }
    }
  }

  /**
   * The run cgroups this JVM made under {@code parents}: other JVMs on the machine (another build,
   * a test fork) make and remove their own meanwhile.
   */
  private static Set<Path> runCgroups(List<Path> parents) throws Exception {
    String stamp = JvmStamp.name("capability-run-");
    String ours = stamp.substring(0, stamp.length() - UUID.randomUUID().toString().length());
    Set<Path> runs = new HashSet<>();
    for (Path parent : parents) {
      try (var children = Files.list(parent)) {
        children.filter(child -> child.getFileName().toString().startsWith(ours)).forEach(runs::add);
      }
    }
    return runs;
  }
}
