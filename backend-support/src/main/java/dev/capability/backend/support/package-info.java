/**
 * What the isolating backends (bwrap, docker) do the same way on the host before a launch: walk
 * paths without following symbolic links, and copy the hashed executable's bytes, checking the
 * digest, into a private file the sandbox shows read-only. Depends on kernel-api only; not an API
 * for hosts.
 */
package dev.capability.backend.support;
