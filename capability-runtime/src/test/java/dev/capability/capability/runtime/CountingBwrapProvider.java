package dev.capability.capability.runtime;

import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real Bubblewrap backend under another id, counting how often it is created and closed, so a
 * test can see how an executor manages the backends it found on the class path itself.
 */
public final class CountingBwrapProvider implements BackendProvider {
  static final String ID = "counting-bwrap";
  static final AtomicInteger CREATED = new AtomicInteger();
  static final AtomicInteger CLOSED = new AtomicInteger();
  private final BwrapBackendProvider bwrap = new BwrapBackendProvider();

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Availability probe() {
    return bwrap.probe();
  }

  @Override
  public ExecutionBackend create(BackendConfig config) {
    ExecutionBackend real = bwrap.create(config);
    CREATED.incrementAndGet();
    return new ExecutionBackend() {
      @Override
      public String id() {
        return ID;
      }

      @Override
      public Set<IsolationCapability> capabilities() {
        return real.capabilities();
      }

      @Override
      public LaunchResult launch(LaunchSpec spec) {
        return real.launch(spec);
      }

      @Override
      public void close() {
        CLOSED.incrementAndGet();
        real.close();
      }
    };
  }
}
