/** Strict parsing of {@code capability.json}. */
package dev.capability.capability.runtime.internal.manifest;
