/**
 * The kernel's public values and service interfaces: requests and results, authority, backends,
 * policies, evidence stores, and the one plugin loader ({@link
 * dev.capability.kernel.api.plugin.Plugins}). The strict JSON parser in {@code json.internal} is
 * not exported.
 */
module dev.capability.kernel.api {
  requires static transitive org.jspecify;
  exports dev.capability.kernel.api;
  exports dev.capability.kernel.api.authority;
  exports dev.capability.kernel.api.backend;
  exports dev.capability.kernel.api.json;
  exports dev.capability.kernel.api.network;
  exports dev.capability.kernel.api.plugin;
  exports dev.capability.kernel.api.policy;
  exports dev.capability.kernel.api.store;

  // Plugins calls ServiceLoader on behalf of every module; the services of other modules are
  // added at run time (Plugins.load calls Module.addUses), these are kernel-api's own.
  uses dev.capability.kernel.api.backend.BackendProvider;
  uses dev.capability.kernel.api.store.EvidenceStoreProvider;
  uses dev.capability.kernel.api.network.EgressGateway;
}
