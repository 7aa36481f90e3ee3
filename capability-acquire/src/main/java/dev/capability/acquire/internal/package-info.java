/** Sources, the content-addressed store and the verifiers behind package acquisition. */
package dev.capability.acquire.internal;
