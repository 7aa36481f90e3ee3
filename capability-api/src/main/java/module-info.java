/** The API capability code is written against; it depends on nothing but the JDK. */
module dev.capability.capability.api {
  exports dev.capability.capability.api;
}
