/** The API capability code is written against; it depends on nothing but the JDK. */
module dev.capability.capability.api {
  requires static transitive org.jspecify;
  exports dev.capability.capability.api;
}
