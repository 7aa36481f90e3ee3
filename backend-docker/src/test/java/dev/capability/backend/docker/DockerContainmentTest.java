package dev.capability.backend.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Event;
import dev.capability.backend.docker.internal.DockerClients;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Containment beyond the namespaces: bind sources another party could swap for a symlink before
 * the daemon resolves them are refused before any container exists, the private {@code /tmp} runs
 * out of inodes, and no file grows past the file size limit.
 */
class DockerContainmentTest {
  private static final DockerClient CLIENT = DockerClients.fromEnvironment();
  private static final int SANDBOX_UID = 65534;

  @TempDir Path tmp;
  private Path repository;

  @BeforeEach
  void repository() throws IOException {
    backend();
    repository = tmp.resolve("repository");
    Files.createDirectory(repository);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(repository, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterAll
  static void closeClient() throws IOException {
    CLIENT.close();
  }

  private static ExecutionBackend backend() {
    return DockerGate.GATE.backend();
  }

  private LaunchSpec.Builder perl(String program) throws IOException {
    Path perl = Path.of("/usr/bin/perl").toRealPath();
    return LaunchSpec.builder(
            new PinnedExecutable(
                perl, Sha256.hex(Files.readAllBytes(perl)), perl.toString(), PinnedExecutable.Pinning.PROC_FD))
        .arguments(List.of("-e", program))
        .workingDirectory(repository)
        .repository(repository)
        .timeout(Duration.ofSeconds(300));
  }

  /** A directory the container's uid can write, as a writable root must be. */
  private static Path sandboxWritable(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    return dir;
  }

  @Test
  void aWritableRootWhoseParentTheSandboxUidOwnsIsRefusedBeforeAnyContainerExists()
      throws Exception {
    Path shared = Files.createDirectory(repository.resolve("shared"));
    Files.setAttribute(shared, "unix:uid", SANDBOX_UID);
    Path ws = sandboxWritable(shared.resolve("ws"));
    LaunchSpec spec = perl("exit 0").writableRoots(List.of(ws)).build();
    Instant before = Instant.now();

    assertThatThrownBy(() -> backend().launch(spec))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.BIND_SOURCE_SWAPPABLE))
        .hasMessageContaining("writable root " + ws)
        .hasMessageContaining(shared + " is owned by uid " + SANDBOX_UID);
    assertThat(containerEventsOfThisJvmSince(before)).as("the daemon's events for this JVM").isEmpty();
  }

  @Test
  void aWritableRootInsideADirectoryTheSandboxCanWriteIsRefused() throws IOException {
    Path ws = sandboxWritable(repository.resolve("ws"));
    Path race = sandboxWritable(ws.resolve("race"));
    LaunchSpec spec = perl("exit 0").writableRoots(List.of(ws, race)).build();

    assertThatThrownBy(() -> backend().launch(spec))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.BIND_SOURCE_SWAPPABLE))
        .hasMessageContaining("writable root " + race)
        .hasMessageContaining(ws + " is writable by every user");
  }

  @Test
  void aRepositoryAndWritableRootUnderDirectoriesOnlyTheKernelWritesRun() throws IOException {
    Path ws = sandboxWritable(repository.resolve("ws"));

    LaunchResult result =
        backend()
            .launch(
                perl("open(my $f, '>', '" + ws + "/out') or die $!; print $f 'ok'; exit 0")
                    .writableRoots(List.of(ws))
                    .build());

    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(Files.readString(ws.resolve("out"))).isEqualTo("ok");
  }

  @Test
  void fiftyThousandEmptyFilesInTmpRunOutOfInodesAndTheCommandSeesTheError() throws IOException {
    LaunchResult result =
        backend()
            .launch(
                perl(
                        "for my $i (1..50000) { open(my $f, '>', \"/tmp/f$i\")"
                            + " or do { print \"$i $!\"; exit 7 } } exit 0")
                    .build());

    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(7);
    assertThat(result.stdout().text()).contains("No space left on device");
    assertThat(result.timedOut()).isFalse();
    assertThat(result.memoryLimitHit()).isFalse();
  }

  @Test
  void aSparseTerabyteFileInAWritableRootFailsWithFileTooLarge() throws IOException {
    Path ws = sandboxWritable(repository.resolve("ws"));

    LaunchResult result =
        backend()
            .launch(
                perl(
                        "$SIG{XFSZ} = 'IGNORE'; open(my $f, '>', '"
                            + ws
                            + "/sparse') or die $!;"
                            + " truncate($f, 1024 ** 4) or do { print \"truncate: $!\"; exit 7 }; exit 0")
                    .writableRoots(List.of(ws))
                    .build());

    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(7);
    assertThat(result.stdout().text()).isEqualTo("truncate: File too large");
    assertThat(Files.size(ws.resolve("sparse"))).isZero();
  }

  @Test
  void aCommandThatDoesNotIgnoreTheFileSizeSignalIsEndedByIt() throws IOException {
    Path ws = sandboxWritable(repository.resolve("ws"));

    LaunchResult result =
        backend()
            .launch(
                perl("open(my $f, '>', '" + ws + "/sparse') or die $!; truncate($f, 1024 ** 4); exit 0")
                    .writableRoots(List.of(ws))
                    .build());

    assertThat(result.exitCode()).as("128 + SIGXFSZ").hasValue(128 + 25);
    assertThat(Files.size(ws.resolve("sparse"))).isZero();
  }

  @Test
  void writingPastTheFileSizeLimitFailsWithFileTooLarge() throws IOException {
    Path ws = sandboxWritable(repository.resolve("ws"));

    LaunchResult result =
        backend()
            .launch(
                perl(
                        "$SIG{XFSZ} = 'IGNORE'; open(my $f, '>', '"
                            + ws
                            + "/big') or die $!; seek($f, 2 * 1024 ** 3, 0) or die $!;"
                            + " syswrite($f, 'x') or do { print \"write: $!\"; exit 7 }; exit 0")
                    .writableRoots(List.of(ws))
                    .build());

    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(7);
    assertThat(result.stdout().text()).isEqualTo("write: File too large");
  }

  private static long nanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }

  private static List<Event> containerEventsOfThisJvmSince(Instant since) throws InterruptedException {
    String jvm =
        ProcessHandle.current().pid()
            + ":"
            + dev.capability.backend.support.ProcTable.read(ProcessHandle.current().pid()).orElseThrow().startTicks();
    List<Event> events = Collections.synchronizedList(new ArrayList<>());
    ResultCallback.Adapter<Event> callback =
        CLIENT.eventsCmd()
            .withSince(Long.toString(since.getEpochSecond() - 1))
            .withUntil(Long.toString(Instant.now().getEpochSecond() + 1))
            .withLabelFilter(Map.of("dev.capability.jvm", jvm))
            .exec(
                new ResultCallback.Adapter<>() {
                  @Override
                  public void onNext(Event event) {
                    if (event.getTimeNano() != null && event.getTimeNano() >= nanos(since)) {
                      events.add(event);
                    }
                  }
                });
    assertThat(callback.awaitCompletion(60, TimeUnit.SECONDS))
        .as("the daemon's event stream ended")
        .isTrue();
    return events;
  }
}
