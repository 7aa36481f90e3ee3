/** Implementation of discovery: URL canonicalization, address checks, bounded HTTP, traversal, ranking. */
package dev.capability.discovery.internal;
