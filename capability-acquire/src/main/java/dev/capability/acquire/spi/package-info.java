/**
 * What plug-ins of acquisition implement and use: the Sigstore verifier SPI, and the readers of
 * the operator's files that a plug-in's own file (the Sigstore trust) shares with acquisition.
 */
@NullMarked
package dev.capability.acquire.spi;

import org.jspecify.annotations.NullMarked;
