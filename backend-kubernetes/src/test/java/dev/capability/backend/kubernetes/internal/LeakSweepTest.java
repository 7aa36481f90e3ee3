package dev.capability.backend.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The sweep against fabric8's mock API server in CRUD mode, which stores what it is sent. */
class LeakSweepTest {
  /** No process has this pid, so a JVM labelled with it is dead. */
  private static final String DEAD_JVM = "2147483646.42";

  private static MockCluster cluster;

  @BeforeAll
  static void start() {
    cluster = new MockCluster();
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  private static Map<String, String> labels(String host, String jvm) {
    Map<String, String> labels = new HashMap<>();
    labels.put(Labels.SDK, "1");
    labels.put(Labels.RUN, "run");
    labels.put(Labels.HOST, host);
    labels.put(Labels.JVM, jvm);
    return labels;
  }

  private static void leave(String name, Map<String, String> labels) {
    cluster.client().pods().inNamespace(MockCluster.NAMESPACE)
        .resource(new PodBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
            .withNewSpec().addNewContainer().withName("c").withImage("i").endContainer().endSpec().build())
        .create();
    cluster.client().network().v1().networkPolicies().inNamespace(MockCluster.NAMESPACE)
        .resource(new NetworkPolicyBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
            .withNewSpec().withNewPodSelector().endPodSelector().endSpec().build())
        .create();
  }

  private static List<String> names(List<? extends HasMetadata> objects) {
    return objects.stream().map(o -> o.getMetadata().getName()).sorted().toList();
  }

  @Test
  void removesOnlyThePodsAndPoliciesOfDeadJvmsOfThisHost() {
    HostJvm self = HostJvm.current();
    leave("dead-here", labels(self.host(), DEAD_JVM));
    leave("malformed-jvm-here", labels(self.host(), "not-a-jvm"));
    leave("alive-here", labels(self.host(), self.jvmLabel()));
    leave("dead-elsewhere", labels("another-boot.4026531836", DEAD_JVM));
    Map<String, String> foreign = labels(self.host(), DEAD_JVM);
    foreign.remove(Labels.SDK);
    leave("not-ours", foreign);

    int removed = new LeakSweep(cluster.client(), MockCluster.NAMESPACE, self).sweep();

    assertThat(removed).isEqualTo(4);
    List<String> kept = List.of("alive-here", "dead-elsewhere", "not-ours");
    assertThat(names(cluster.pods())).isEqualTo(kept);
    assertThat(names(cluster.client().network().v1().networkPolicies().inNamespace(MockCluster.NAMESPACE).list().getItems()))
        .isEqualTo(kept);
  }
}
