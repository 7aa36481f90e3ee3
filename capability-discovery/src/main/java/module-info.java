/** Finding capabilities in federated indexes and ranking them. */
module dev.capability.discovery {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires transitive dev.capability.capability.runtime;
  requires transitive dev.capability.acquire;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;

  exports dev.capability.discovery;
}
