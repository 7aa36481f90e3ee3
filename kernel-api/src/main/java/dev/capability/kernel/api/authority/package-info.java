/**
 * Layered authority: the operator's policy, narrowed by a project contract, the active phase,
 * the active correction radius and what the selected backend can enforce. Each layer is an
 * {@link dev.capability.kernel.api.authority.AuthorityLayer}; a decision names the layer that
 * refused. See {@code docs/authority.md}.
 */
@NullMarked
package dev.capability.kernel.api.authority;

import org.jspecify.annotations.NullMarked;
