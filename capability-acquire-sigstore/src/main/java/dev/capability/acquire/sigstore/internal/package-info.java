/** The Sigstore trust file and the bundle verifier behind the plug-in. */
package dev.capability.acquire.sigstore.internal;
