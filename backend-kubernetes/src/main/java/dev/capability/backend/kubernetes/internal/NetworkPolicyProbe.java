package dev.capability.backend.kubernetes.internal;

import dev.capability.backend.support.Deadline;
import dev.capability.kernel.api.NetworkMode;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the cluster's network plugin enforces {@code NetworkPolicy}, found by trying it: {@code
 * capability doctor} runs it, never a run or a decision. In the backend's namespace, with the
 * backend's image and the pod profile of a run, two pods each try one TCP connection to the API
 * server's service address ({@code $KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT}, which the
 * kubelet gives every container) with the image's {@code bash} ({@code /dev/tcp}), after a
 * moment for the plugin to apply policies: a control pod under no policy, and a pod under a
 * deny-all policy like a run's, created before it. The control must connect, or nothing can be
 * concluded; then the other pod's connecting means the policy is not enforced, and its failing
 * (refused, or no answer within {@link #CONNECT_SECONDS}) that it is. Both pods and the policy
 * carry a run's labels and the probe's mark ({@link Labels#forNetworkPolicyProbe}), so the leak
 * sweep removes them should this JVM die, and they are deleted before {@link #probe} returns.
 *
 * <p>The API server's address, not a listener pod: every cluster has it and every pod may reach it
 * unless a policy says otherwise, it needs no listening tool in the image nor a second pod's
 * address, and it is an address (no DNS lookup, which the policy also denies and which would fail
 * for another reason). A plugin that exempted the API server from policies would make the probe
 * report "not enforced" for a cluster that enforces them elsewhere: the error claims less, never
 * more.
 */
final class NetworkPolicyProbe {
  /** What the probe found. */
  enum Verdict {
    /** The pod under the deny-all policy could not connect while the control pod could. */
    ENFORCED,
    /** The pod under the deny-all policy connected. */
    NOT_ENFORCED,
    /** Nothing can be concluded: the control did not connect, or a pod did not finish. */
    INCONCLUSIVE
  }

  /**
   * The verdict and why, for diagnostics.
   *
   * @param verdict what was found
   * @param reason how, in a sentence
   */
  record Outcome(Verdict verdict, String reason) {
    Outcome {
      Objects.requireNonNull(verdict, "verdict");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** How long one pod waits for the API server to answer, after {@link #SETTLE_SECONDS}. */
  static final int CONNECT_SECONDS = 10;

  /** How long a pod waits before connecting, so that the plugin has applied the policy. */
  static final int SETTLE_SECONDS = 3;

  /** {@code timeout}'s status when the connection got no answer in time. */
  static final int NO_ANSWER_STATUS = 124;

  /** {@code bash}'s status when a redirection to {@code /dev/tcp} fails: refused or unreachable. */
  static final int REFUSED_STATUS = 1;

  /** The connection attempt, run by the image's {@code bash}. */
  static final String CONNECT_SCRIPT =
      "sleep " + SETTLE_SECONDS + "; exec 3<>\"/dev/tcp/$KUBERNETES_SERVICE_HOST/$KUBERNETES_SERVICE_PORT\"";

  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration REMOVAL_WAIT = Duration.ofSeconds(60);
  private static final Logger LOG = LoggerFactory.getLogger(NetworkPolicyProbe.class);

  private final KubernetesClient client;
  private final String namespace;
  private final KubernetesSettings settings;
  private final PodManifest manifest;
  private final HostJvm jvm;
  private final Supplier<String> runIds;

  /**
   * @param runIds a fresh id for each pod; in tests, ids known ahead
   */
  NetworkPolicyProbe(
      KubernetesClient client, String namespace, KubernetesSettings settings, HostJvm jvm, Supplier<String> runIds) {
    this.client = Objects.requireNonNull(client, "client");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.manifest = new PodManifest(settings);
    this.jvm = Objects.requireNonNull(jvm, "jvm");
    this.runIds = Objects.requireNonNull(runIds, "runIds");
  }

  /** The command of each probe pod. */
  static List<String> command() {
    return List.of(
        "timeout", Integer.toString(SETTLE_SECONDS + CONNECT_SECONDS), "bash", "-c", CONNECT_SCRIPT);
  }

  /** How long the pods may take to be scheduled, start, and try: the start timeout and the try. */
  private Duration finishBound() {
    return settings.startTimeout().plusSeconds(SETTLE_SECONDS + CONNECT_SECONDS + 5L);
  }

  /** Creates the policy and both pods, waits for them to finish, and deletes everything; never throws. */
  Outcome probe() {
    String controlId = runIds.get();
    String deniedId = runIds.get();
    String control = PodManifest.name(controlId);
    String denied = PodManifest.name(deniedId);
    long deadline = finishBound().toSeconds() + 1;
    Map<String, String> deniedLabels = Labels.forNetworkPolicyProbe(deniedId, jvm);
    NetworkPolicy policy = manifest.denyAll(namespace, deniedId, deniedLabels, NetworkMode.NONE).orElseThrow();
    try {
      // The policy first: it selects the pod by label from the pod's first instant.
      client.network().v1().networkPolicies().inNamespace(namespace).resource(policy).create();
      client.pods().inNamespace(namespace).resource(manifest.probePod(namespace, deniedId, deniedLabels, deadline, command())).create();
      client.pods()
          .inNamespace(namespace)
          .resource(manifest.probePod(namespace, controlId, Labels.forNetworkPolicyProbe(controlId, jvm), deadline, command()))
          .create();
      Deadline finish = Deadline.after(finishBound());
      Finished controlEnd = awaitFinished(control, finish);
      Finished deniedEnd = awaitFinished(denied, finish);
      return interpret(controlEnd, deniedEnd);
    } catch (KubernetesClientException e) {
      return new Outcome(
          Verdict.INCONCLUSIVE,
          "the cluster refused the probe's pods or policy in namespace " + namespace + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome(Verdict.INCONCLUSIVE, "interrupted while the probe's pods ran");
    } finally {
      delete(List.of(control, denied), denied);
    }
  }

  /**
   * How a probe pod ended.
   *
   * @param exitCode its container's exit code; empty when it did not end in time or ended without
   *     one (evicted, never started)
   * @param status its status, for messages
   */
  record Finished(OptionalInt exitCode, String status) {}

  /** Waits until the pod's container terminated, at most until {@code deadline}. */
  private Finished awaitFinished(String name, Deadline deadline) throws InterruptedException {
    while (true) {
      Pod pod = client.pods().inNamespace(namespace).withName(name).get();
      if (pod == null) {
        return new Finished(OptionalInt.empty(), "the pod vanished");
      }
      PodStatus status = pod.getStatus();
      OptionalInt exit = exitCode(status);
      String phase = status == null || status.getPhase() == null ? "Pending" : status.getPhase();
      if (exit.isPresent() || phase.equals("Succeeded") || phase.equals("Failed")) {
        return new Finished(exit, PodRun.describe(status));
      }
      if (deadline.passed()) {
        return new Finished(
            OptionalInt.empty(), "it did not finish within " + finishBound().toSeconds() + " s: " + PodRun.describe(status));
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  private static OptionalInt exitCode(@Nullable PodStatus status) {
    if (status == null || status.getContainerStatuses() == null) {
      return OptionalInt.empty();
    }
    Optional<Integer> code =
        status.getContainerStatuses().stream()
            .filter(c -> PodManifest.CONTAINER.equals(c.getName()))
            .map(ContainerStatus::getState)
            .filter(state -> state != null && state.getTerminated() != null && state.getTerminated().getExitCode() != null)
            .map(state -> state.getTerminated().getExitCode())
            .findFirst();
    return code.map(OptionalInt::of).orElse(OptionalInt.empty());
  }

  /** What the two pods' ends mean; see the class comment. */
  static Outcome interpret(Finished control, Finished denied) {
    if (control.exitCode().isEmpty()) {
      return new Outcome(Verdict.INCONCLUSIVE, "the control pod (no policy) ended without an exit code: " + control.status());
    }
    int controlExit = control.exitCode().getAsInt();
    if (controlExit != 0) {
      return new Outcome(
          Verdict.INCONCLUSIVE,
          "the control pod (no policy) could not connect to the API server's service address (exit "
              + controlExit
              + explain(controlExit)
              + "), so a failure under the policy would prove nothing");
    }
    if (denied.exitCode().isEmpty()) {
      return new Outcome(Verdict.INCONCLUSIVE, "the pod under the deny-all policy ended without an exit code: " + denied.status());
    }
    int deniedExit = denied.exitCode().getAsInt();
    if (deniedExit == 0) {
      return new Outcome(
          Verdict.NOT_ENFORCED,
          "a pod under a deny-all NetworkPolicy connected to the API server's service address: the cluster's network plugin"
              + " does not enforce NetworkPolicy egress");
    }
    if (deniedExit == REFUSED_STATUS || deniedExit == NO_ANSWER_STATUS) {
      return new Outcome(
          Verdict.ENFORCED,
          "a pod under a deny-all NetworkPolicy could not connect to the API server's service address (exit "
              + deniedExit
              + explain(deniedExit)
              + ") while the control pod without a policy could");
    }
    return new Outcome(
        Verdict.INCONCLUSIVE,
        "the pod under the deny-all policy ended with exit " + deniedExit + explain(deniedExit) + ", which is not a connection's outcome");
  }

  private static String explain(int exit) {
    return switch (exit) {
      case REFUSED_STATUS -> ": refused or unreachable";
      case NO_ANSWER_STATUS -> ": no answer within " + CONNECT_SECONDS + " s";
      case 126, 127 -> ": the image has no runnable bash or timeout";
      case 137 -> ": killed";
      default -> "";
    };
  }

  /** Deletes the pods at once and the policy, and waits, bounded, until the pods are gone. */
  private void delete(List<String> pods, String policy) {
    for (String pod : pods) {
      try {
        client.pods().inNamespace(namespace).withName(pod).withGracePeriod(0).delete();
      } catch (KubernetesClientException e) {
        LOG.debug("deleting probe pod {} failed: {}", pod, e.getMessage());
      }
    }
    try {
      client.network().v1().networkPolicies().inNamespace(namespace).withName(policy).delete();
    } catch (KubernetesClientException e) {
      LOG.debug("deleting probe network policy {} failed: {}", policy, e.getMessage());
    }
    Deadline deadline = Deadline.after(REMOVAL_WAIT);
    for (String pod : pods) {
      try {
        while (client.pods().inNamespace(namespace).withName(pod).get() != null && !deadline.passed()) {
          Thread.sleep(POLL.toMillis());
        }
      } catch (KubernetesClientException e) {
        LOG.debug("reading probe pod {} failed: {}", pod, e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
