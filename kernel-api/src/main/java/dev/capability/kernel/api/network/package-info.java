/**
 * Filtered egress: the destinations a run may reach ({@link EgressRules}), the host-owned proxy
 * that enforces them ({@link EgressGateway}, one {@link EgressSession} per run) and what it saw
 * ({@link EgressConnection}). A sandbox with {@link dev.capability.kernel.api.NetworkMode#FILTERED}
 * network has no network of its own: it reaches the proxy only through a Unix socket the backend
 * makes reachable in it, relayed to {@link EgressSandbox#PROXY_HOST}:{@link
 * EgressSandbox#PROXY_PORT} inside the sandbox.
 */
@NullMarked
package dev.capability.kernel.api.network;

import org.jspecify.annotations.NullMarked;
