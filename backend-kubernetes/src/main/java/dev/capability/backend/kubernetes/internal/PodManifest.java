package dev.capability.backend.kubernetes.internal;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The objects one run creates: a pod under the restricted Pod Security profile, and, unless the
 * spec allows the network, a {@code NetworkPolicy} that denies the pod all ingress and egress.
 *
 * <p>The pod's one container runs {@code sleep} for the pod's whole deadline; everything else
 * reaches it through exec: the shipped executable and workspace ({@code tar -x}), the command, the
 * writable roots back ({@code tar -c}). Its root file system is read-only; it can write only three
 * {@code emptyDir} volumes, each size-limited: the workspace at the repository's path, the
 * executable's directory {@link #EXECUTABLE_DIRECTORY}, and a memory-backed {@code /tmp}.
 */
final class PodManifest {
  /** The uid and gid of every process of the pod: {@code nobody} on most distributions. */
  static final long NOBODY = 65534;

  /** Where the pinned executable is shipped to, inside the pod. */
  static final String EXECUTABLE_DIRECTORY = "/capability-exec";

  /** The container's name. */
  static final String CONTAINER = "command";

  /** The pod's host name, as the Docker backend names its containers' hosts. */
  static final String HOST_NAME = "sandbox";

  /** The largest {@code activeDeadlineSeconds}, so that no sum of durations overflows it. */
  private static final long MAX_DEADLINE_SECONDS = 7L * 24 * 3600;

  private final KubernetesSettings settings;

  PodManifest(KubernetesSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /** The pod's and the policy's name. */
  static String name(String runId) {
    return "ck-" + runId;
  }

  /**
   * The pod's deadline: the command's timeout and grace, plus the start timeout (scheduling, image
   * pull) and twice the transfer timeout (workspace in, writable roots out). When it passes, the
   * kubelet ends the pod even if this JVM died meanwhile.
   */
  long activeDeadlineSeconds(LaunchSpec spec) {
    Duration total =
        spec.timeout()
            .plus(spec.terminationGrace())
            .plus(settings.startTimeout())
            .plus(settings.transferTimeout().multipliedBy(2));
    long seconds = total.getSeconds() + (total.getNano() > 0 ? 1 : 0);
    return Math.min(seconds, MAX_DEADLINE_SECONDS);
  }

  /** The pod of run {@code runId}, labelled with {@code labels}. */
  Pod pod(String namespace, String runId, Map<String, String> labels, LaunchSpec spec) {
    long deadline = activeDeadlineSeconds(spec);
    List<Volume> volumes = new ArrayList<>();
    List<VolumeMount> mounts = new ArrayList<>();
    volumes.add(emptyDir("tmp", Optional.of("Memory"), settings.tmpBytes()));
    mounts.add(mount("tmp", "/tmp"));
    volumes.add(emptyDir("executable", Optional.empty(), settings.workspaceBytes()));
    mounts.add(mount("executable", EXECUTABLE_DIRECTORY));
    Optional<Path> repository = spec.repository();
    if (repository.isPresent()) {
      volumes.add(emptyDir("workspace", Optional.empty(), settings.workspaceBytes()));
      mounts.add(mount("workspace", workspacePath(repository.get())));
    }
    return restricted(namespace, runId, labels, deadline, List.of("sleep", Long.toString(deadline)), spec.workingDirectory().toString(), volumes, mounts);
  }

  /**
   * A pod of the network policy probe: the same restricted profile and limits as a run's pod, with
   * only the private {@code /tmp}, running {@code command} once.
   */
  Pod probePod(String namespace, String runId, Map<String, String> labels, long deadlineSeconds, List<String> command) {
    return restricted(
        namespace,
        runId,
        labels,
        deadlineSeconds,
        command,
        "/",
        List.of(emptyDir("tmp", Optional.of("Memory"), settings.tmpBytes())),
        List.of(mount("tmp", "/tmp")));
  }

  /**
   * Every pod the backend creates: the restricted Pod Security profile, the limits, no service
   * account token, no host namespaces, {@code restartPolicy: Never}, and {@code command} as the
   * container's only process, with {@code volumes} its only writable places.
   */
  private Pod restricted(
      String namespace,
      String runId,
      Map<String, String> labels,
      long deadline,
      List<String> command,
      String workingDirectory,
      List<Volume> volumes,
      List<VolumeMount> mounts) {
    Map<String, Quantity> limits =
        Map.of(
            "cpu", new Quantity(settings.milliCpus() + "m"),
            "memory", new Quantity(Long.toString(settings.memoryBytes())),
            "ephemeral-storage", new Quantity(Long.toString(settings.ephemeralStorageBytes())));
    return new PodBuilder()
        .withNewMetadata()
        .withName(name(runId))
        .withNamespace(namespace)
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .withAutomountServiceAccountToken(false)
        .withEnableServiceLinks(false)
        .withActiveDeadlineSeconds(deadline)
        .withHostname(HOST_NAME)
        .withHostNetwork(false)
        .withHostPID(false)
        .withHostIPC(false)
        .withShareProcessNamespace(false)
        .withTerminationGracePeriodSeconds(0L)
        .withNewSecurityContext()
        .withRunAsNonRoot(true)
        .withRunAsUser(NOBODY)
        .withRunAsGroup(NOBODY)
        .withNewSeccompProfile()
        .withType("RuntimeDefault")
        .endSeccompProfile()
        .endSecurityContext()
        .addNewContainer()
        .withName(CONTAINER)
        .withImage(settings.image())
        .withImagePullPolicy("IfNotPresent")
        .withCommand(command)
        .withWorkingDir(workingDirectory)
        .withStdin(false)
        .withTty(false)
        .withNewSecurityContext()
        .withRunAsNonRoot(true)
        .withRunAsUser(NOBODY)
        .withRunAsGroup(NOBODY)
        .withReadOnlyRootFilesystem(true)
        .withAllowPrivilegeEscalation(false)
        .withPrivileged(false)
        .withNewCapabilities()
        .withDrop("ALL")
        .endCapabilities()
        .withNewSeccompProfile()
        .withType("RuntimeDefault")
        .endSeccompProfile()
        .endSecurityContext()
        .withNewResources()
        .withLimits(limits)
        .withRequests(limits)
        .endResources()
        .withVolumeMounts(mounts)
        .endContainer()
        .withVolumes(volumes)
        .endSpec()
        .build();
  }

  /**
   * The policy that denies the run's pod every connection in and out, or empty when the spec
   * allows the network. It selects the pod by its run label, so it holds from the pod's first
   * instant when it is created before the pod.
   */
  Optional<NetworkPolicy> denyAll(String namespace, String runId, Map<String, String> labels, NetworkMode network) {
    if (network == NetworkMode.HOST) {
      return Optional.empty();
    }
    return Optional.of(
        new NetworkPolicyBuilder()
            .withNewMetadata()
            .withName(name(runId))
            .withNamespace(namespace)
            .withLabels(labels)
            .endMetadata()
            .withNewSpec()
            .withNewPodSelector()
            .withMatchLabels(Map.of(Labels.RUN, runId))
            .endPodSelector()
            .withPolicyTypes("Ingress", "Egress")
            .withIngress(List.of())
            .withEgress(List.of())
            .endSpec()
            .build());
  }

  /**
   * Where the workspace volume is mounted: the repository's own path, so the command sees the same
   * paths as in a local run. Neither {@code /} nor a directory the pod needs of its own.
   */
  static String workspacePath(Path repository) {
    Path normalized = repository.normalize();
    String path = normalized.toString();
    if (!normalized.isAbsolute()
        || normalized.getNameCount() == 0
        || path.equals("/tmp")
        || path.equals(EXECUTABLE_DIRECTORY)
        || normalized.startsWith(EXECUTABLE_DIRECTORY)) {
      throw new LaunchFailedException(
          "the kubernetes backend cannot ship the repository "
              + repository
              + ": it must be an absolute directory other than /, /tmp and "
              + EXECUTABLE_DIRECTORY);
    }
    return path;
  }

  private static Volume emptyDir(String name, Optional<String> medium, long sizeBytes) {
    return new VolumeBuilder()
        .withName(name)
        .withNewEmptyDir()
        .withMedium(medium.orElse(null))
        .withSizeLimit(new Quantity(Long.toString(sizeBytes)))
        .endEmptyDir()
        .build();
  }

  private static VolumeMount mount(String name, String path) {
    return new VolumeMountBuilder().withName(name).withMountPath(path).withReadOnly(false).build();
  }
}
