/**
 * The execution backend SPI: what a backend is handed to launch ({@link
 * dev.capability.kernel.api.backend.LaunchSpec}) and what it reports back.
 */
@NullMarked
package dev.capability.kernel.api.backend;

import org.jspecify.annotations.NullMarked;
