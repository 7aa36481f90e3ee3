package dev.capability.backend.docker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import dev.capability.backend.docker.DockerGate;
import dev.capability.backend.docker.LocalRuntimeImage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up sweep, for real: a host JVM killed with SIGKILL mid-run leaves its container
 * behind, and the next sweep removes it, while containers of live JVMs stay.
 */
class LeakSweepTest {
  private static final DockerClient CLIENT = DockerClients.fromEnvironment();
  private static final Path WORK = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();

  @TempDir Path tmp;

  @BeforeEach
  void requireDaemon() {
    DockerGate.GATE.backend();
  }

  @AfterAll
  static void closeClient() throws IOException {
    CLIENT.close();
  }

  @Test
  void removesTheContainerOfAHostJvmKilledMidRun() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Process child =
        new ProcessBuilder(
                java.toString(),
                "-Djava.io.tmpdir=" + WORK,
                "-cp",
                classPath,
                LeakedContainerMain.class.getName())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .directory(new File("/"))
            .redirectOutput(tmp.resolve("stdout").toFile())
            .redirectError(tmp.resolve("stderr").toFile())
            .start();
    Optional<Container> leaked = Optional.empty();
    try {
      for (int i = 0; i < 1200 && leaked.isEmpty() && child.isAlive(); i++) {
        leaked = running(child.pid());
        if (leaked.isEmpty()) {
          Thread.sleep(100);
        }
      }
      assertThat(leaked)
          .as("the child JVM's running container; its stderr is in %s", tmp.resolve("stderr"))
          .isPresent();
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
    String id = leaked.get().getId();
    Path runDirectory = WORK.resolve("ck-docker-" + leaked.get().getLabels().get(Labels.RUN));
    assertThat(exists(id)).as("the container outlived its killed JVM").isTrue();
    assertThat(runDirectory).as("the killed JVM's run directory").isDirectory();

    int removed = new LeakSweep(CLIENT, HostJvm.current(), WORK).sweep();

    assertThat(removed).isPositive();
    assertThat(exists(id)).as("the sweep removed the leftover").isFalse();
    assertThat(runDirectory).as("the sweep removed its run directory").doesNotExist();
  }

  @Test
  void leavesTheContainersOfLiveJvmsAlone() {
    HostJvm self = HostJvm.current();
    HostJvm dead = new HostJvm(self.host(), self.pid(), self.startTicks() - 1);
    String mine = created(Labels.forRun("live-" + System.nanoTime(), self));
    String orphan = created(Labels.forRun("dead-" + System.nanoTime(), dead));
    try {
      new LeakSweep(CLIENT, self, WORK).sweep();

      assertThat(exists(mine)).as("a live JVM's container").isTrue();
      assertThat(exists(orphan)).as("a container whose JVM start time no longer matches").isFalse();
    } finally {
      for (String id : List.of(mine, orphan)) {
        try {
          CLIENT.removeContainerCmd(id).withForce(true).exec();
        } catch (NotFoundException e) {
          // Already swept.
        }
      }
    }
  }

  private static String created(Map<String, String> labels) {
    return CLIENT
        .createContainerCmd(LocalRuntimeImage.defaultTag())
        .withEntrypoint(List.of("/opt/capability/bin/busybox", "true"))
        .withLabels(labels)
        .exec()
        .getId();
  }

  private static Optional<Container> running(long pid) {
    return CLIENT.listContainersCmd().withLabelFilter(Map.of(Labels.SDK, "1")).exec().stream()
        .filter(c -> c.getLabels().getOrDefault(Labels.JVM, "").startsWith(pid + ":"))
        .filter(c -> "running".equals(c.getState()))
        .findFirst();
  }

  private static boolean exists(String id) {
    try {
      CLIENT.inspectContainerCmd(id).exec();
      return true;
    } catch (NotFoundException e) {
      return false;
    }
  }
}
