package dev.capability.acquire.sigstore;

import dev.capability.acquire.internal.ContentStore;

/**
 * A class in the Sigstore plug-in's package that reaches into acquisition's implementation, for
 * the CLI's ArchitectureTest to show its rule catches it (test code; never on a product class path).
 */
public final class PluginReachingIntoAcquisition {
  private PluginReachingIntoAcquisition() {}

  /** The reach the rule must catch. */
  public static Class<?> store() {
    return ContentStore.class;
  }
}
