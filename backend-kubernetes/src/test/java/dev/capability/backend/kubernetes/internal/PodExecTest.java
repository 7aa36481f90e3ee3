package dev.capability.backend.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.ShippedWorkspace;
import io.fabric8.kubernetes.client.server.mock.ErrorStreamMessage;
import io.fabric8.kubernetes.client.server.mock.OutputStreamMessage;
import io.fabric8.kubernetes.client.server.mock.StatusStreamMessage;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.internal.WebSocketMessage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
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
import java.util.concurrent.TimeUnit;
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
 * takes a message on an exec's stdin only when it expects that exact message (compared as text; it
 * closes the session on any other), so the command's status is answered only once its exact launch
 * frame arrived; the binary archives shipped in are recorded in this JVM ({@link
 * RecordingShipping}) instead of sent to {@code tar -x}.
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

  /** The exec request of the command: its argv is the fixed launcher, with the spec's durations only. */
  private static String command(String runId, String grace, String timeout) {
    return exec(runId, true, List.of("timeout", "-s", "TERM", "-k", grace, timeout, "sh", "-c", LaunchFrame.SCRIPT, "ck-launch"));
  }

  /** The frame of a spec running {@code /bin/true} with no environment, arguments or input. */
  private static final String BARE_FRAME = "ck-launch 1\n0\n1\n1\n" + PodManifest.EXECUTABLE_DIRECTORY + "/true\n";

  /**
   * Answers the command's exec: {@code open} at once, and {@code afterFrame} only once the exact
   * frame arrived on stdin (channel 0): the mock compares each binary message the client sends,
   * as text, with the one expected, and closes the session on any other.
   */
  private static void answerCommand(String path, String frame, Object[] open, Object afterFrame) {
    cluster.server()
        .expect()
        .get()
        .withPath(path)
        .andUpgradeToWebSocket()
        .open(open)
        .expect("\0" + frame)
        .andEmit(afterFrame)
        .once()
        .done()
        .once();
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
    String frame =
        "ck-launch 1\n0\n5\n1\nA=1\n1\nB=two words\n1\n" + PodManifest.EXECUTABLE_DIRECTORY + "/true\n1\n--flag\n1\nx&y\n";
    answerCommand(
        command(runId, "1.500", "30.000"),
        frame,
        new Object[] {new OutputStreamMessage("out\n"), new ErrorStreamMessage("err\n")},
        new StatusStreamMessage(7));

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

  /** Every request the mock server recorded since the last call, oldest first. */
  private static List<RecordedRequest> takeRequests() throws InterruptedException {
    List<RecordedRequest> requests = new ArrayList<>();
    for (RecordedRequest request = cluster.server().takeRequest(0, TimeUnit.SECONDS);
        request != null;
        request = cluster.server().takeRequest(0, TimeUnit.SECONDS)) {
      requests.add(request);
    }
    return requests;
  }

  @Test
  void theEnvironmentArgumentsAndInputTravelOnStdinInTheFrameAndNoRequestCarriesThem() throws Exception {
    takeRequests();
    String runId = runId();
    String secret = "ghp-S3cretTokenValue-4711";
    String input = "input!";
    // Written out here, not built with LaunchFrame: this is the framing the pod's script reads.
    String frame =
        "ck-launch 1\n"
            + "6\n"
            + "4\n"
            + "1\nAPI_TOKEN=" + secret + "\n"
            + "2\nNOTE=first line\nsecond " + secret + "\n"
            + "1\n" + PodManifest.EXECUTABLE_DIRECTORY + "/true\n"
            + "1\n--token=" + secret + "\n";
    // The status comes only once the frame and then the input arrived, each exactly as expected.
    cluster.server()
        .expect()
        .get()
        .withPath(command(runId, "2.000", "60.000"))
        .andUpgradeToWebSocket()
        .open()
        .expect("\0" + frame)
        .andEmit(new OutputStreamMessage("frame read\n"))
        .once()
        .expect("\0" + input)
        .andEmit(new StatusStreamMessage(0))
        .once()
        .done()
        .once();

    LaunchResult result =
        launch(
            runId,
            MockCluster.spec()
                .environment(Map.of("API_TOKEN", secret, "NOTE", "first line\nsecond " + secret))
                .arguments(List.of("--token=" + secret))
                .stdin(input.getBytes(StandardCharsets.UTF_8))
                .build());

    assertThat(result.exitCode()).isEqualTo(OptionalInt.of(0));
    assertThat(result.stdout().text()).isEqualTo("frame read\n");
    List<RecordedRequest> requests = takeRequests();
    assertThat(requests)
        .as("the run's requests include its exec")
        .anySatisfy(r -> assertThat(r.getPath()).startsWith("/api/v1/namespaces/" + MockCluster.NAMESPACE + "/pods/" + PodManifest.name(runId) + "/exec?"));
    assertThat(requests)
        .allSatisfy(
            r -> {
              assertThat(r.getPath()).doesNotContain(secret);
              assertThat(URLDecoder.decode(r.getPath(), StandardCharsets.UTF_8)).doesNotContain(secret);
              assertThat(r.getUtf8Body()).doesNotContain(secret);
            });
  }

  @Test
  void anEnvironmentValueWithNulIsRefusedBeforeAnythingIsCreatedAndNotQuoted() {
    String runId = runId();
    LaunchSpec spec = MockCluster.spec().environment(Map.of("TOKEN", "abc\0secret")).build();

    assertThatThrownBy(() -> launch(runId, spec))
        .hasCauseInstanceOf(LaunchFailedException.class)
        .cause()
        .satisfies(e -> assertThat(((LaunchFailedException) e).code()).isEqualTo(LaunchFailedException.CODE))
        .hasMessageContaining("TOKEN")
        .hasMessageContaining("NUL")
        .hasMessageNotContaining("secret");
    assertThat(cluster.pods()).isEmpty();
  }

  @Test
  void outputBeyondTheBoundIsCutFlaggedAndEndsTheRun() throws Exception {
    String runId = runId();
    // No exit status follows: the backend must not wait for one once the bound is passed.
    answerCommand(command(runId, "2.000", "60.000"), BARE_FRAME, new Object[0], new OutputStreamMessage("0123456789"));

    LaunchResult result = launch(runId, MockCluster.spec().maxOutputBytes(4).build());

    assertThat(result.stdout().text()).isEqualTo("0123");
    assertThat(result.stdout().truncated()).isTrue();
    assertThat(result.outputLimitHit()).isTrue();
    assertThat(result.timedOut()).isFalse();
    assertThat(result.exitCode()).isEmpty();
    assertThat(result.termination()).isEqualTo("pod-deleted");
  }

  @Test
  void anExecThatEndsWithAFailureInsteadOfAnExitStatusReportsNoExitCodeKeepsTheOutputAndDeletesThePod() throws Exception {
    String runId = runId();
    // What an API server sends on the status channel when the exec itself broke, not the command.
    byte[] failure =
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"reason\":\"InternalError\",\"message\":\"error executing command in container\"}"
            .getBytes(StandardCharsets.UTF_8);
    byte[] statusFrame = new byte[failure.length + 1];
    statusFrame[0] = 3;
    System.arraycopy(failure, 0, statusFrame, 1, failure.length);
    answerCommand(
        command(runId, "2.000", "60.000"), BARE_FRAME, new Object[] {new OutputStreamMessage("started\n")}, new WebSocketMessage(statusFrame));

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
    answerCommand(command(runId, "2.000", "60.000"), BARE_FRAME, new Object[0], new StatusStreamMessage(PodRun.TIMEOUT_STATUS));

    LaunchResult result = launch(runId, MockCluster.spec().build());

    assertThat(result.timedOut()).isFalse();
    assertThat(result.exitCode()).isEqualTo(OptionalInt.of(PodRun.TIMEOUT_STATUS));
  }

  @Test
  void theWorkspaceIsShippedToTheRepositorysPathAndTheWritableRootsComeBackToTheKernel() throws Exception {
    String runId = runId();
    Path repository = Path.of("/work/repo");
    answerCommand(command(runId, "2.000", "60.000"), BARE_FRAME, new Object[0], new StatusStreamMessage(0));
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
