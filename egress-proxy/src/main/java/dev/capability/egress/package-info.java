/**
 * The per-run egress proxy: {@link dev.capability.egress.NettyEgressGateway} implements {@link
 * dev.capability.kernel.api.network.EgressGateway} with Netty, and names resolve through an
 * {@link dev.capability.egress.EgressResolver}, the system's DNS unless one is injected.
 */
@NullMarked
package dev.capability.egress;

import org.jspecify.annotations.NullMarked;
