/**
 * Sigstore verification for acquisition, as a plug-in: {@link
 * dev.capability.acquire.sigstore.SigstoreJavaVerifierProvider} is found by {@code
 * capability-acquire} through {@link java.util.ServiceLoader}, so only embedders that put this
 * module on their class path inherit sigstore-java and its dependencies.
 */
@NullMarked
package dev.capability.acquire.sigstore;

import org.jspecify.annotations.NullMarked;
