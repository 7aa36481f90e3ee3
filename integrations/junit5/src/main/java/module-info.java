/**
 * The JUnit Jupiter extension for test harnesses: {@link dev.capability.junit5.CapabilitySandbox}
 * gives a test a configured kernel, a temporary Git repository and a ledger of its own, and fails
 * it when a command wrote outside its write scope; {@link dev.capability.junit5.CapabilityAssertions}
 * asserts on results. Only {@code dev.capability.junit5} is exported.
 */
// The package, and so the module, is named for JUnit 5, the version of the platform it extends.
@SuppressWarnings("module")
module dev.capability.junit5 {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires transitive dev.capability.kernel.core;
  requires transitive dev.capability.capability.runtime;
  requires transitive dev.capability.ledger;
  requires transitive org.junit.jupiter.api;
  requires transitive org.assertj.core;

  exports dev.capability.junit5;
}
