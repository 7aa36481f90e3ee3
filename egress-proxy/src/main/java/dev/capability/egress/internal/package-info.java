/** The proxy's implementation: the session, the protocol handlers, the rules and the relay. */
@NullMarked
package dev.capability.egress.internal;

import org.jspecify.annotations.NullMarked;
