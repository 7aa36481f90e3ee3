/** Built-in policies and the fail-closed decision point. */
package dev.capability.capability.runtime.internal.policy;
