package dev.capability.backend.kubernetes.internal;

import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;

/**
 * fabric8's mock API server in CRUD mode: it stores the objects it is sent and serves them back,
 * and it also answers the expectations a test sets (for exec). It runs no pods: a test that needs
 * a pod to run sets its status itself ({@link #markRunning}), as a kubelet would.
 */
final class MockCluster implements AutoCloseable {
  static final String NAMESPACE = "sandboxes";

  /** The mock server logs every request through java.util.logging; kept to warnings (held, so it stays set). */
  private static final java.util.logging.Logger MOCK_LOG = quiet("io.fabric8.mockwebserver");

  private static java.util.logging.Logger quiet(String name) {
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
    logger.setLevel(java.util.logging.Level.WARNING);
    return logger;
  }

  private final KubernetesMockServer server;
  private final KubernetesClient client;

  MockCluster() {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, new KubernetesMixedDispatcher(responses), false);
    server.init();
    client = server.createClient();
  }

  KubernetesClient client() {
    return client;
  }

  KubernetesMockServer server() {
    return server;
  }

  /** The pods of the namespace, as stored. */
  List<Pod> pods() {
    return client.pods().inNamespace(NAMESPACE).list().getItems();
  }

  /** A kubeconfig in {@code directory} naming this server, context {@code mock}, namespace {@link #NAMESPACE}. */
  Path kubeconfig(Path directory) {
    String url = server.url("/").replaceAll("/$", "");
    String text =
        "apiVersion: v1\n"
            + "kind: Config\n"
            + "clusters:\n"
            + "- name: mock\n"
            + "  cluster:\n"
            + "    server: " + url + "\n"
            + "contexts:\n"
            + "- name: mock\n"
            + "  context:\n"
            + "    cluster: mock\n"
            + "    user: mock\n"
            + "    namespace: " + NAMESPACE + "\n"
            + "current-context: mock\n"
            + "users:\n"
            + "- name: mock\n"
            + "  user:\n"
            + "    token: not-a-secret\n";
    try {
      return Files.writeString(directory.resolve("kubeconfig"), text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sets the pod's status to running and ready, as the kubelet would once its container started. */
  void markRunning(Pod pod) {
    Pod running =
        new PodBuilder(pod)
            .withStatus(
                new PodStatusBuilder()
                    .withPhase("Running")
                    .withConditions(new PodConditionBuilder().withType("Ready").withStatus("True").build())
                    .withContainerStatuses(
                        new ContainerStatusBuilder()
                            .withName(PodManifest.CONTAINER)
                            .withReady(true)
                            .withState(new ContainerStateBuilder().withNewRunning().endRunning().build())
                            .build())
                    .build())
            .build();
    client.pods().inNamespace(NAMESPACE).resource(running).updateStatus();
  }

  /** Sets the pod's status to failed, as the kubelet would when its image cannot run. */
  void markFailed(Pod pod, String reason) {
    Pod failed =
        new PodBuilder(pod).withStatus(new PodStatusBuilder().withPhase("Failed").withReason(reason).build()).build();
    client.pods().inNamespace(NAMESPACE).resource(failed).updateStatus();
  }

  /**
   * Sets the pod's status to ended with its container's {@code exitCode}, as the kubelet would once
   * the container's command exited.
   */
  void markTerminated(Pod pod, int exitCode) {
    Pod ended =
        new PodBuilder(pod)
            .withStatus(
                new PodStatusBuilder()
                    .withPhase(exitCode == 0 ? "Succeeded" : "Failed")
                    .withContainerStatuses(
                        new ContainerStatusBuilder()
                            .withName(PodManifest.CONTAINER)
                            .withState(
                                new ContainerStateBuilder()
                                    .withNewTerminated()
                                    .withExitCode(exitCode)
                                    .withReason(exitCode == 0 ? "Completed" : "Error")
                                    .endTerminated()
                                    .build())
                            .build())
                    .build())
            .build();
    client.pods().inNamespace(NAMESPACE).resource(ended).updateStatus();
  }

  /** The stored pod named {@code name}; fails when there is none. */
  Pod pod(String name) {
    Pod pod = client.pods().inNamespace(NAMESPACE).withName(name).get();
    if (pod == null) {
      throw new AssertionError("no pod " + name);
    }
    return pod;
  }

  /** Pins a real file of this machine, as the kernel would. */
  static PinnedExecutable pin(Path file) {
    try {
      Path real = file.toRealPath();
      return new PinnedExecutable(real, Sha256.hex(Files.readAllBytes(real)), real.toString(), PinnedExecutable.Pinning.PROC_FD);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A spec running {@code /bin/true} with no repository. */
  static LaunchSpec.Builder spec() {
    return LaunchSpec.builder(pin(Path.of("/bin/true"))).workingDirectory(Path.of("/tmp"));
  }

  @Override
  public void close() {
    client.close();
    server.destroy();
  }
}
