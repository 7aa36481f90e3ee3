package dev.capability.backend.docker;

import dev.capability.backend.tck.BackendGate;
import dev.capability.backend.tck.ResourceContract;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.ExecutionBackend;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;

/**
 * The resource attacks of the contract suite against a docker backend with small memory and
 * process limits. Docker bounds processes but cannot report a refused fork (the daemon has no such
 * event and the container's cgroup is gone when it stops), which the suite is told.
 */
class DockerResourceContractTest implements ResourceContract {
  private static final BackendGate GATE;

  static {
    // Built by the shared gate's class first, so this gate's probe finds the image.
    DockerGate.GATE.getClass();
    GATE =
        BackendGate.of(
            new DockerBackendProvider(),
            new BackendConfig(Map.of("docker.limit.pids", "32", "docker.limit.memory", "64M")));
  }

  @Override
  public ExecutionBackend backend() {
    return GATE.backend();
  }

  @Override
  public OptionalLong processLimit() {
    return OptionalLong.of(32);
  }

  @Override
  public boolean reportsProcessLimitHits() {
    return false;
  }

  @Override
  public OptionalLong memoryLimitBytes() {
    return OptionalLong.of(64L << 20);
  }

  @AfterAll
  static void closeBackend() {
    GATE.close();
  }
}
