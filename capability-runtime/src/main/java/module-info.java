/**
 * The capability runtime: inspecting, planning and running capability packages. Executors are
 * {@link dev.capability.capability.runtime.ExecutorProvider}s found with {@link
 * java.util.ServiceLoader}; the two built in are provided here.
 */
// JNA (com.sun.jna) and re2j are automatic modules.
@SuppressWarnings("requires-automatic")
module dev.capability.capability.runtime {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires transitive dev.capability.capability.api;
  requires transitive com.fasterxml.jackson.databind;
  requires transitive dev.capability.kernel.core;
  requires dev.capability.linux;
  requires com.sun.jna;
  requires com.networknt.schema;
  requires org.apache.commons.compress;
  requires org.slf4j;
  // re2j publishes no module name; this is the name the JDK derives from its jar (re2j-1.8.jar).
  // See docs/decisions.md, "Module names: re2j and sigstore-java".
  requires re2j;

  exports dev.capability.capability.runtime;
  exports dev.capability.capability.runtime.support;

  uses dev.capability.capability.runtime.ExecutorProvider;

  provides dev.capability.capability.runtime.ExecutorProvider
      with dev.capability.capability.runtime.internal.exec.InProcessExecutorProvider,
          dev.capability.capability.runtime.internal.exec.ChildJvmExecutorProvider;
}
