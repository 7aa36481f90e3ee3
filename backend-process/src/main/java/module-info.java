/** The {@code process} backend, found with {@link java.util.ServiceLoader} through its provider. */
module dev.capability.backend.process {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires dev.capability.backend.support;
  requires org.slf4j;

  exports dev.capability.backend.process;

  provides dev.capability.kernel.api.backend.BackendProvider
      with dev.capability.backend.process.ProcessBackendProvider;
}
