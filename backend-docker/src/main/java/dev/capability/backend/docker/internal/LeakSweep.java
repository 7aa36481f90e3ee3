package dev.capability.backend.docker.internal;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the containers of JVMs that died without removing them (a crash, SIGKILL). Only
 * containers labelled by this SDK for this host are considered, and only those whose launching JVM
 * (pid and start time) is no longer running are removed: containers of live JVMs, including other
 * JVMs on this host, are left alone.
 */
final class LeakSweep {
  private static final Logger LOG = LoggerFactory.getLogger(LeakSweep.class);

  private final DockerClient client;
  private final HostJvm self;

  LeakSweep(DockerClient client, HostJvm self) {
    this.client = Objects.requireNonNull(client, "client");
    this.self = Objects.requireNonNull(self, "self");
  }

  /** Removes the leftovers; returns how many containers were removed. */
  int sweep() {
    List<Container> containers =
        client
            .listContainersCmd()
            .withShowAll(true)
            .withLabelFilter(Map.of(Labels.SDK, "1", Labels.HOST, self.host()))
            .exec();
    int removed = 0;
    for (Container container : containers) {
      Map<String, String> labels = container.getLabels() == null ? Map.of() : container.getLabels();
      String jvm = labels.getOrDefault(Labels.JVM, "");
      if (!self.host().equals(labels.get(Labels.HOST)) || HostJvm.alive(jvm)) {
        continue;
      }
      try {
        client.removeContainerCmd(container.getId()).withForce(true).withRemoveVolumes(true).exec();
        removed++;
      } catch (NotFoundException e) {
        // Its own JVM, or another sweep, removed it meanwhile.
        LOG.debug("{} was already gone", container.getId());
      } catch (DockerException e) {
        LOG.debug("could not remove leftover {}: {}", container.getId(), e.getMessage());
      }
    }
    return removed;
  }
}
