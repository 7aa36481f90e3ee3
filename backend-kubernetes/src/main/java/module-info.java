/** The {@code kubernetes} backend, found with {@link java.util.ServiceLoader} through its provider. */
// fabric8's jars are automatic modules; most are named by their file names.
@SuppressWarnings("requires-automatic")
module dev.capability.backend.kubernetes {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires dev.capability.backend.support;
  requires kubernetes.client.api;
  requires kubernetes.model.core;
  requires kubernetes.model.common;
  requires kubernetes.model.networking;
  requires io.fabric8.kubernetes.client.jdkhttp;
  requires org.apache.commons.compress;
  requires org.slf4j;

  exports dev.capability.backend.kubernetes;

  provides dev.capability.kernel.api.backend.BackendProvider
      with dev.capability.backend.kubernetes.KubernetesBackendProvider;
}
