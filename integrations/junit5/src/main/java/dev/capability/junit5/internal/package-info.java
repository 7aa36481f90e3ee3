/** The extension behind {@code @CapabilitySandbox}; not API. */
@NullMarked
package dev.capability.junit5.internal;

import org.jspecify.annotations.NullMarked;
