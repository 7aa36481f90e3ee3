/**
 * Acquiring capability packages: fetching, verifying signatures and provenance, and keeping them.
 * Sigstore verification is a plug-in ({@link dev.capability.acquire.spi.SigstoreVerifierProvider})
 * found with {@link java.util.ServiceLoader}.
 */
module dev.capability.acquire {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires transitive dev.capability.capability.runtime;
  requires transitive com.fasterxml.jackson.databind;
  requires org.bouncycastle.pg;
  requires org.bouncycastle.provider;
  requires java.net.http;
  requires java.xml;

  exports dev.capability.acquire;
  exports dev.capability.acquire.spi;

  uses dev.capability.acquire.spi.SigstoreVerifierProvider;
}
