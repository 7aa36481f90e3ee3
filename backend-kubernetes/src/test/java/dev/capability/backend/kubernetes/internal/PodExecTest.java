package dev.capability.backend.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.ShippedWorkspace;
import io.fabric8.kubernetes.client.server.mock.ErrorStreamMessage;
import io.fabric8.kubernetes.client.server.mock.OutputStreamMessage;
import io.fabric8.kubernetes.client.server.mock.StatusStreamMessage;
import io.fabric8.mockwebserver.internal.WebSocketMessage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Whole runs against fabric8's mock API server in CRUD mode with exec expectations: the server
 * stores the pod and policy, the test plays the kubelet (the pod's status) and the container (each
 * exec's output and exit status, set ahead for the exact argv the backend must send). Nothing runs:
 * these tests show what the backend asks of the cluster and how it reads the answers. The mock
 * cannot take an exec's stdin (it closes the session on a client's binary frame), so the archives
 * shipped in are recorded in this JVM ({@link RecordingShipping}) instead of sent to {@code tar -x}.
 */
class PodExecTest {
  private static final AtomicInteger RUNS = new AtomicInteger();
  private static MockCluster cluster;
  private static ExecutorService launcher;

  @BeforeAll
  static void start() {
    cluster = new MockCluster();
    launcher = Executors.newSingleThreadExecutor();
  }

  @AfterAll
  static void stop() {
    launcher.shutdownNow();
    cluster.close();
  }

  @AfterEach
  void thePodAndPolicyAreDeletedAfterTheRun() {
    assertThat(cluster.pods()).as("pods left").isEmpty();
    assertThat(cluster.client().network().v1().networkPolicies().inNamespace(MockCluster.NAMESPACE).list().getItems())
        .as("network policies left")
        .isEmpty();
  }

  /** A fresh run id, so that each test's expectations name its own pod. */
  private static String runId() {
    return new UUID(0, RUNS.incrementAndGet()).toString();
  }

  /** The exec request fabric8 sends for {@code argv} in the run's container. */
  private static String exec(String runId, boolean stdin, List<String> argv) {
    StringBuilder path = new StringBuilder("/api/v1/namespaces/" + MockCluster.NAMESPACE + "/pods/" + PodManifest.name(runId) + "/exec?");
    for (String arg : argv) {
      path.append("command=").append(URLEncoder.encode(arg, StandardCharsets.UTF_8).replace("+", "%20")).append('&');
    }
    path.append("container=").append(PodManifest.CONTAINER).append('&');
    if (stdin) {
      path.append("stdin=true&");
    }
    return path.append("stdout=true&stderr=true").toString();
  }

  private static void answer(String path, Object... messages) {
    cluster.server().expect().get().withPath(path).andUpgradeToWebSocket().open(messages).done().once();
  }

  /** Where each archive would be unpacked, with its bytes: the kernel-facing half of shipping. */
  private static final class RecordingShipping implements PodRun.Shipping {
    private final Map<String, byte[]> shipped = new java.util.LinkedHashMap<>();

    @Override
    public synchronized void ship(String pod, String what, String directory, PodRun.ArchiveWriter archive) {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      try {
        archive.write(bytes);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      shipped.put(directory, bytes.toByteArray());
    }
  }

  private static LaunchResult launch(String runId, LaunchSpec spec) throws Exception {
    return launch(runId, spec, new RecordingShipping());
  }

  private static LaunchResult launch(String runId, LaunchSpec spec, RecordingShipping shipping) throws Exception {
    PodRun run =
        new PodRun(
            cluster.client(), MockCluster.NAMESPACE, KubernetesSettings.from(BackendConfig.defaults()), HostJvm.current(), () -> runId, shipping);
    Future<LaunchResult> launch = launcher.submit(() -> run.run(spec));
    while (cluster.pods().isEmpty() && !launch.isDone()) {
      Thread.sleep(20);
    }
    if (!launch.isDone()) {
      cluster.markRunning(cluster.pods().get(0));
    }
    return launch.get();
  }

  @Test
  void aRunShipsTheExecutableRunsTheCommandWithExactlyItsEnvironmentAndReportsItsStatusAndOutput() throws Exception {
    String runId = runId();
    List<String> command =
        List.of("timeout", "-s", "TERM", "-k", "1.500", "30.000", "env", "-i", "--", "A=1", "B=two words",
            PodManifest.EXECUTABLE_DIRECTORY + "/true", "--flag", "x&y");
    answer(exec(runId, false, command), new OutputStreamMessage("out\n"), new ErrorStreamMessage("err\n"), new StatusStreamMessage(7));

    RecordingShipping shipping = new RecordingShipping();
    LaunchResult result =
        launch(
            runId,
            MockCluster.spec()
                .arguments(List.of("--flag", "x&y"))
                .environment(Map.of("B", "two words", "A", "1"))
                .timeout(Duration.ofSeconds(30))
                .terminationGrace(Duration.ofMillis(1500))
                .build(),
            shipping);

    assertThat(shipping.shipped).containsOnlyKeys(PodManifest.EXECUTABLE_DIRECTORY);
    try (TarArchiveInputStream tar = new TarArchiveInputStream(new ByteArrayInputStream(shipping.shipped.get(PodManifest.EXECUTABLE_DIRECTORY)))) {
      TarArchiveEntry entry = tar.getNextEntry();
      assertThat(entry.getName()).isEqualTo("true");
      assertThat(entry.getMode() & 07777).isEqualTo(0555);
      assertThat(tar.readAllBytes()).isEqualTo(Files.readAllBytes(Path.of("/bin/true").toRealPath()));
      assertThat(tar.getNextEntry()).isNull();
    }

    assertThat(result.exitCode()).isEqualTo(OptionalInt.of(7));
    assertThat(result.stdout().text()).isEqualTo("out\n");
    assertThat(result.stderr().text()).isEqualTo("err\n");
    assertThat(result.timedOut()).isFalse();
    assertThat(result.outputLimitHit()).isFalse();
    assertThat(result.termination()).isEqualTo("none");
  }

  @Test
  void outputBeyondTheBoundIsCutFlaggedAndEndsTheRun() throws Exception {
    String runId = runId();
    List<String> command =
        List.of("timeout", "-s", "TERM", "-k", "2.000", "60.000", "env", "-i", "--", PodManifest.EXECUTABLE_DIRECTORY + "/true");
    // No exit status follows: the backend must not wait for one once the bound is passed.
    answer(exec(runId, false, command), new OutputStreamMessage("0123456789"));

    LaunchResult result = launch(runId, MockCluster.spec().maxOutputBytes(4).build());

    assertThat(result.stdout().text()).isEqualTo("0123");
    assertThat(result.stdout().truncated()).isTrue();
    assertThat(result.outputLimitHit()).isTrue();
    assertThat(result.timedOut()).isFalse();
    assertThat(result.exitCode()).isEmpty();
    assertThat(result.termination()).isEqualTo("pod-deleted");
  }

  @Test
  void aStreamThatEndsWithoutAStatusReportsNoExitCodeKeepsTheOutputAndDeletesThePod() throws Exception {
    String runId = runId();
    List<String> command =
        List.of("timeout", "-s", "TERM", "-k", "2.000", "60.000", "env", "-i", "--", PodManifest.EXECUTABLE_DIRECTORY + "/true");
    answer(exec(runId, false, command), new OutputStreamMessage("started\n"));

    LaunchResult result = launch(runId, MockCluster.spec().build());

    assertThat(result.exitCode()).isEmpty();
    assertThat(result.timedOut()).isFalse();
    assertThat(result.stdout().text()).isEqualTo("started\n");
    assertThat(result.termination()).isEqualTo("pod-deleted");
  }

  @Test
  void theStatusOfTheTimeoutCommandAfterTheTimeoutMeansTimedOut() {
    assertThat(PodRun.endedByTimeout(true, OptionalInt.of(PodRun.TIMEOUT_STATUS))).isTrue();
    assertThat(PodRun.endedByTimeout(true, OptionalInt.of(PodRun.KILLED_STATUS))).isTrue();
    assertThat(PodRun.endedByTimeout(true, OptionalInt.of(1))).isFalse();
    assertThat(PodRun.endedByTimeout(true, OptionalInt.empty())).isFalse();
    assertThat(PodRun.endedByTimeout(false, OptionalInt.of(PodRun.TIMEOUT_STATUS))).isFalse();
  }

  @Test
  void aStatusOf124BeforeTheTimeoutIsTheCommandsOwn() throws Exception {
    String runId = runId();
    List<String> command =
        List.of("timeout", "-s", "TERM", "-k", "2.000", "60.000", "env", "-i", "--", PodManifest.EXECUTABLE_DIRECTORY + "/true");
    answer(exec(runId, false, command), new StatusStreamMessage(PodRun.TIMEOUT_STATUS));

    LaunchResult result = launch(runId, MockCluster.spec().build());

    assertThat(result.timedOut()).isFalse();
    assertThat(result.exitCode()).isEqualTo(OptionalInt.of(PodRun.TIMEOUT_STATUS));
  }

  @Test
  void theWorkspaceIsShippedToTheRepositorysPathAndTheWritableRootsComeBackToTheKernel() throws Exception {
    String runId = runId();
    Path repository = Path.of("/work/repo");
    List<String> command =
        List.of("timeout", "-s", "TERM", "-k", "2.000", "60.000", "env", "-i", "--", PodManifest.EXECUTABLE_DIRECTORY + "/true");
    answer(exec(runId, false, command), new StatusStreamMessage(0));
    byte[] archive = "the writable roots' archive".getBytes(StandardCharsets.UTF_8);
    byte[] stdoutFrame = new byte[archive.length + 1];
    stdoutFrame[0] = 1;
    System.arraycopy(archive, 0, stdoutFrame, 1, archive.length);
    answer(
        exec(runId, false, List.of("tar", "-c", "-f", "-", "-C", repository.toString(), "--", "src", "build/out")),
        new WebSocketMessage(stdoutFrame),
        new StatusStreamMessage(0));
    RecordingWorkspace workspace = new RecordingWorkspace(List.of(Path.of("src"), Path.of("build/out")));

    RecordingShipping shipping = new RecordingShipping();
    LaunchResult result =
        launch(runId, MockCluster.spec().repository(repository).workingDirectory(repository).workspace(workspace).build(), shipping);

    assertThat(shipping.shipped).containsOnlyKeys(PodManifest.EXECUTABLE_DIRECTORY, repository.toString());
    assertThat(shipping.shipped.get(repository.toString())).isEqualTo(new byte[1024]);

    assertThat(result.exitCode()).isEqualTo(OptionalInt.of(0));
    assertThat(workspace.inputWrites).isEqualTo(1);
    assertThat(workspace.owners).containsExactly(new ShippedWorkspace.Owner(65534, 65534), new ShippedWorkspace.Owner(65534, 65534));
    assertThat(new String(workspace.received, StandardCharsets.UTF_8)).isEqualTo("the writable roots' archive");
  }

  /** A workspace that records what the backend does with it: the kernel's side of the seam. */
  private static final class RecordingWorkspace implements ShippedWorkspace {
    private final List<Path> roots;
    private int inputWrites;
    private final List<Owner> owners = new ArrayList<>();
    private byte[] received = new byte[0];

    RecordingWorkspace(List<Path> roots) {
      this.roots = roots;
    }

    @Override
    public String inputTreeHash() {
      return "0".repeat(64);
    }

    @Override
    public List<Path> writableRoots() {
      return roots;
    }

    @Override
    public long maxInputBytes() {
      return 1 << 20;
    }

    @Override
    public long maxReturnBytes() {
      return 1 << 20;
    }

    @Override
    public synchronized long writeInput(OutputStream out, Owner readOnlyOwner, Owner writableOwner) throws IOException {
      inputWrites++;
      owners.add(readOnlyOwner);
      owners.add(writableOwner);
      byte[] input = new byte[1024];
      out.write(input);
      return input.length;
    }

    @Override
    public synchronized void receiveWritableRoots(InputStream tar) throws IOException {
      received = tar.readAllBytes();
    }
  }
}
