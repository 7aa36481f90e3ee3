package dev.capability.backend.kubernetes.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the pods and network policies of JVMs that died without deleting them (a crash,
 * SIGKILL), in the backend's namespace. Only objects labelled by this SDK for this host are
 * considered, and only those whose launching JVM (pid and start time) is no longer running are
 * deleted: objects of live JVMs, including other JVMs on this host, and of other hosts, are left
 * alone (a pod of another host ends at its {@code activeDeadlineSeconds} all the same).
 */
final class LeakSweep {
  private static final Logger LOG = LoggerFactory.getLogger(LeakSweep.class);

  private final KubernetesClient client;
  private final String namespace;
  private final HostJvm self;

  LeakSweep(KubernetesClient client, String namespace, HostJvm self) {
    this.client = Objects.requireNonNull(client, "client");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.self = Objects.requireNonNull(self, "self");
  }

  /** Deletes the leftovers; returns how many pods and policies were deleted. */
  int sweep() {
    Map<String, String> selector = Map.of(Labels.SDK, "1", Labels.HOST, self.host());
    List<? extends HasMetadata> pods =
        client.pods().inNamespace(namespace).withLabels(selector).list().getItems();
    List<? extends HasMetadata> policies =
        client.network().v1().networkPolicies().inNamespace(namespace).withLabels(selector).list().getItems();
    int deleted = 0;
    for (HasMetadata pod : pods) {
      if (leftover(pod)) {
        deleted += delete("pod", pod, () -> client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).withGracePeriod(0).delete());
      }
    }
    for (HasMetadata policy : policies) {
      if (leftover(policy)) {
        deleted += delete("network policy", policy, () -> client.network().v1().networkPolicies().inNamespace(namespace).withName(policy.getMetadata().getName()).delete());
      }
    }
    return deleted;
  }

  private boolean leftover(HasMetadata object) {
    Map<String, String> labels = object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels();
    // The server filtered by label already; checked again since a label selector is the server's word.
    return "1".equals(labels.get(Labels.SDK))
        && self.host().equals(labels.get(Labels.HOST))
        && !HostJvm.alive(labels.getOrDefault(Labels.JVM, ""));
  }

  private interface Deletion {
    List<?> delete();
  }

  private static int delete(String what, HasMetadata object, Deletion deletion) {
    try {
      return deletion.delete().isEmpty() ? 0 : 1;
    } catch (KubernetesClientException e) {
      LOG.debug("could not delete leftover {} {}: {}", what, object.getMetadata().getName(), e.getMessage());
      return 0;
    }
  }
}
