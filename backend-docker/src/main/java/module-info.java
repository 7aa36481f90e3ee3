/** The {@code docker} backend, found with {@link java.util.ServiceLoader} through its provider. */
// docker-java's jars are automatic modules, named by their Automatic-Module-Name.
@SuppressWarnings("requires-automatic")
module dev.capability.backend.docker {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires dev.capability.backend.support;
  requires com.github.dockerjava.api;
  requires com.github.dockerjava.core;
  requires com.github.dockerjava.transport;
  requires com.github.dockerjava.transport.zerodep;
  requires org.apache.commons.compress;
  requires org.slf4j;

  exports dev.capability.backend.docker;

  provides dev.capability.kernel.api.backend.BackendProvider
      with dev.capability.backend.docker.DockerBackendProvider;
}
