package dev.capability.egress.internal;

/** Where an address leads, as far as the proxy's rules care. */
enum AddressClass {
  /** A public unicast address: any granted name may lead here. */
  PUBLIC,
  /**
   * Loopback, private, shared (CGNAT), link-local (cloud metadata included) or unique-local: only
   * a name the operator listed as a private-address name may lead here.
   */
  PRIVATE,
  /** Unspecified, "this network", multicast, reserved or broadcast: never a destination. */
  NEVER
}
