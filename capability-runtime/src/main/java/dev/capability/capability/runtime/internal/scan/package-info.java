/** The constant-pool effect scan: reads class files as bytes, never loads them. */
package dev.capability.capability.runtime.internal.scan;
