/** Importing OpenAPI operations as capabilities, and the HTTP invoker they run. */
module dev.capability.openapi {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires transitive dev.capability.capability.api;
  requires transitive dev.capability.capability.runtime;
  requires transitive dev.capability.discovery;
  requires com.fasterxml.jackson.databind;
  requires java.net.http;

  exports dev.capability.openapi;
  exports dev.capability.openapi.invoker;
}
