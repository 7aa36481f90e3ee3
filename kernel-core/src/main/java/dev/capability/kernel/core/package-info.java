/**
 * The command kernel: policy loading, authority layers, backend selection and the decide-then-run
 * pipeline of {@link dev.capability.kernel.core.CommandKernel}.
 */
@NullMarked
package dev.capability.kernel.core;

import org.jspecify.annotations.NullMarked;
