/** The {@code capability} command line; its commands live in the {@code internal} packages. */
@NullMarked
package dev.capability.cli;

import org.jspecify.annotations.NullMarked;
