/** The contract tests every backend passes, for a backend's own test suite. */
module dev.capability.backend.tck {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires transitive dev.capability.backend.support;
  requires transitive org.junit.jupiter.api;
  requires transitive org.junit.jupiter.params;
  requires transitive org.assertj.core;
  requires transitive net.jqwik.api;

  exports dev.capability.backend.tck;

  uses dev.capability.kernel.api.backend.BackendProvider;
}
