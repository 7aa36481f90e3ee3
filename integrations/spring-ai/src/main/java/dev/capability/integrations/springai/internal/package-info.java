/** The adapter from an agent tool to a Spring AI tool callback, and the auto-configuration's helpers. */
@NullMarked
package dev.capability.integrations.springai.internal;

import org.jspecify.annotations.NullMarked;
