/**
 * The shipped workspace: the repository written as a tar archive for a backend that cannot bind
 * it, and the writable roots it returns read back under a hostile package's checks before they
 * reach the host. Only {@code dev.capability.workspace} is exported.
 */
module dev.capability.workspace {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;

  exports dev.capability.workspace;
}
