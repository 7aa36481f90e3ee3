/**
 * What the backends do the same way on the host. Before a launch (bwrap, docker): walk paths without
 * following symbolic links, and copy the hashed executable's bytes, checking the digest, into a
 * private file the sandbox shows read-only. While a command runs (process, bwrap): the {@link
 * dev.capability.backend.support.CommandSupervision supervision loop} with its {@link
 * dev.capability.backend.support.Deadline} and the {@link
 * dev.capability.backend.support.BoundedOutput bounded capture} of its output, and the {@link
 * dev.capability.backend.support.ProcTable process table} read from {@code /proc} to find and end
 * what it left running. Depends on kernel-api (and
 * slf4j for debug logging) only; not an API for hosts.
 */
@NullMarked
package dev.capability.backend.support;

import org.jspecify.annotations.NullMarked;
