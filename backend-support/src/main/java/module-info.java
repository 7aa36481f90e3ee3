/** What the backends share: launching, limits and output capture. */
module dev.capability.backend.support {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires transitive dev.capability.linux;
  requires org.slf4j;

  exports dev.capability.backend.support;
}
