package dev.capability.backend.docker.internal;

import java.util.Map;

/** The labels on everything the backend creates, so that leftovers can be found and attributed. */
final class Labels {
  /** Marks an object as created by this SDK. */
  static final String SDK = "dev.capability.sdk";
  /** The run the container belongs to. */
  static final String RUN = "dev.capability.run";
  /** The machine (boot id and PID namespace) of the launching JVM. */
  static final String HOST = "dev.capability.host";
  /** The launching JVM: pid and start time. */
  static final String JVM = "dev.capability.jvm";
  /** Image labels: the digest of the image's root filesystem content. */
  static final String IMAGE_CONTENT = "dev.capability.image.content";

  private Labels() {}

  static Map<String, String> forRun(String runId, HostJvm jvm) {
    return Map.of(SDK, "1", RUN, runId, HOST, jvm.host(), JVM, jvm.jvmLabel());
  }
}
