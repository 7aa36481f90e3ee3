package dev.capability.backend.docker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectVolumeResponse;
import dev.capability.backend.docker.SecondDockerDaemon;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The leak sweep removes the workspace volumes a dead JVM left on the remote daemon and leaves
 * those of a live JVM alone, as it does with containers.
 */
class LeakSweepVolumesTest {

  @Test
  void volumesOfDeadJvmsAreRemovedAndThoseOfLiveOnesKept() throws Exception {
    SecondDockerDaemon.Started daemon = SecondDockerDaemon.get();
    HostJvm self = HostJvm.current();
    String dead = "ck-" + UUID.randomUUID() + "-workspace";
    String live = "ck-" + UUID.randomUUID() + "-workspace";
    try (DockerClient client = daemon.client()) {
      // No JVM has pid 0: the label names a JVM that is not running.
      client.createVolumeCmd().withName(dead)
          .withLabels(Map.of(Labels.SDK, "1", Labels.RUN, UUID.randomUUID().toString(), Labels.HOST, self.host(), Labels.JVM, "0:1"))
          .exec();
      client.createVolumeCmd().withName(live).withLabels(Labels.forRun(UUID.randomUUID().toString(), self)).exec();
      try {
        new LeakSweep(client, self, Path.of(System.getProperty("java.io.tmpdir"))).sweep();

        List<String> names =
            client.listVolumesCmd().exec().getVolumes().stream().map(InspectVolumeResponse::getName).toList();
        assertThat(names).contains(live).doesNotContain(dead);
      } finally {
        client.removeVolumeCmd(live).exec();
      }
    }
  }
}
