package dev.capability.backend.docker.internal;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectVolumeResponse;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import dev.capability.backend.support.DirectoryTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the containers of JVMs that died without removing them (a crash, SIGKILL), and their
 * per-run directories. Only containers labelled by this SDK for this host are considered, and only
 * those whose launching JVM (pid and start time) is no longer running are removed: containers of
 * live JVMs, including other JVMs on this host, are left alone.
 */
final class LeakSweep {
  private static final Logger LOG = LoggerFactory.getLogger(LeakSweep.class);

  private static final Pattern RUN_ID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private final DockerClient client;
  private final HostJvm self;
  private final Path workDirectory;

  /**
   * @param workDirectory where the dead JVMs made their per-run directories ({@code
   *     docker.work-dir})
   */
  LeakSweep(DockerClient client, HostJvm self, Path workDirectory) {
    this.client = Objects.requireNonNull(client, "client");
    this.self = Objects.requireNonNull(self, "self");
    this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
  }

  /**
   * Removes the leftovers: containers first, then the volumes of shipped workspaces, which a
   * container in use would keep; returns how many containers were removed.
   */
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
        deleteRunDirectory(labels.getOrDefault(Labels.RUN, ""));
      } catch (NotFoundException e) {
        // Its own JVM, or another sweep, removed it meanwhile.
        LOG.debug("{} was already gone", container.getId());
      } catch (DockerException e) {
        LOG.debug("could not remove leftover {}: {}", container.getId(), e.getMessage());
      }
    }
    sweepVolumes();
    return removed;
  }

  private void sweepVolumes() {
    List<InspectVolumeResponse> volumes;
    try {
      volumes =
          client
              .listVolumesCmd()
              .withFilter("label", List.of(Labels.SDK + "=1", Labels.HOST + "=" + self.host()))
              .exec()
              .getVolumes();
    } catch (DockerException e) {
      LOG.debug("could not list leftover volumes: {}", e.getMessage());
      return;
    }
    for (InspectVolumeResponse volume : volumes == null ? List.<InspectVolumeResponse>of() : volumes) {
      Map<String, String> labels = volume.getLabels() == null ? Map.of() : volume.getLabels();
      if (!self.host().equals(labels.get(Labels.HOST)) || HostJvm.alive(labels.getOrDefault(Labels.JVM, ""))) {
        continue;
      }
      try {
        client.removeVolumeCmd(volume.getName()).exec();
      } catch (NotFoundException e) {
        LOG.debug("{} was already gone", volume.getName());
      } catch (DockerException e) {
        LOG.debug("could not remove leftover volume {}: {}", volume.getName(), e.getMessage());
      }
    }
  }

  private void deleteRunDirectory(String runId) {
    // The label comes from the daemon, which anyone allowed to use it can write: only a plain
    // run id names a directory.
    if (!RUN_ID.matcher(runId).matches()) {
      return;
    }
    Path directory = workDirectory.resolve("ck-docker-" + runId);
    if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      DirectoryTrees.delete(directory);
    } catch (IOException e) {
      LOG.debug("could not delete leftover {}: {}", directory, e.getMessage());
    }
  }
}
