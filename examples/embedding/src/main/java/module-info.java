/**
 * The embedding example as a named module, as an application on the module path declares it. The
 * backend (Bubblewrap) is not named: kernel-core {@code uses} the backend service, so the module
 * system resolves every backend module on the module path and the kernel finds it with {@link
 * java.util.ServiceLoader}.
 */
// embedding-module:start
module dev.capability.examples.embedding {
  requires dev.capability.kernel.core;
}
// embedding-module:end
