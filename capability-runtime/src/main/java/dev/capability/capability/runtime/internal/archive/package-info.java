/** Strict, in-memory readers for package directories, zip/jar and tgz archives. */
package dev.capability.capability.runtime.internal.archive;
