/** Inert inspection of a package against its manifest. */
package dev.capability.capability.runtime.internal.inspect;
