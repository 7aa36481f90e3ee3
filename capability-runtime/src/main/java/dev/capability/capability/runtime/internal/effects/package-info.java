/** Scope grammars of the effect vocabulary. */
package dev.capability.capability.runtime.internal.effects;
