/**
 * What a capability author implements: {@link dev.capability.capability.api.Capability} and the
 * {@link dev.capability.capability.api.CapabilityContext} it is handed. This package has no
 * dependencies but the JSpecify nullness annotations (not needed at run time) and changes rarely;
 * packages compile against it and nothing else of the SDK.
 */
@NullMarked
package dev.capability.capability.api;

import org.jspecify.annotations.NullMarked;
