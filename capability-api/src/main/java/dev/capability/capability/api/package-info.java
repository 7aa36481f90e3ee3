/**
 * What a capability author implements: {@link dev.capability.capability.api.Capability} and the
 * {@link dev.capability.capability.api.CapabilityContext} it is handed. This package has no
 * dependencies and changes rarely; packages compile against it and nothing else of the SDK.
 */
package dev.capability.capability.api;
