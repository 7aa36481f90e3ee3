package dev.capability.acquire.sigstore.internal;

import dev.capability.capability.runtime.support.UrlCredentials;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1UTF8String;

/**
 * Who a Fulcio certificate was issued to: the OIDC issuer (Fulcio's extension, or its older raw
 * form) and its one subject alternative name, an email address or a URI.
 */
record SigstoreSigner(String issuer, String subject, Optional<String> sourceRepository) {
  private static final String ISSUER_V2 = "1.3.6.1.4.1.57264.1.8";
  private static final String SOURCE_REPOSITORY = "1.3.6.1.4.1.57264.1.12";
  private static final String ISSUER_V1 = "1.3.6.1.4.1.57264.1.1";
  private static final int SAN_EMAIL = 1;
  private static final int SAN_URI = 6;

  static Optional<SigstoreSigner> of(X509Certificate certificate) {
    Optional<String> issuer = issuer(certificate);
    Optional<String> subject = subject(certificate);
    if (issuer.isEmpty() || subject.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SigstoreSigner(issuer.get(), subject.get(), utf8Extension(certificate, SOURCE_REPOSITORY)));
  }

  private static Optional<String> issuer(X509Certificate certificate) {
    if (certificate.getExtensionValue(ISSUER_V2) != null) {
      return utf8Extension(certificate, ISSUER_V2);
    }
    try {
      byte[] v1 = certificate.getExtensionValue(ISSUER_V1);
      return v1 == null ? Optional.empty() : Optional.of(new String(ASN1OctetString.getInstance(v1).getOctets(), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** An extension holding a DER UTF8String, as Fulcio writes its newer extensions; empty when absent or not one. */
  private static Optional<String> utf8Extension(X509Certificate certificate, String oid) {
    try {
      byte[] value = certificate.getExtensionValue(oid);
      if (value == null) {
        return Optional.empty();
      }
      byte[] inner = ASN1OctetString.getInstance(value).getOctets();
      return Optional.of(ASN1UTF8String.getInstance(ASN1Primitive.fromByteArray(inner)).getString());
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> subject(X509Certificate certificate) {
    Collection<List<?>> names;
    try {
      names = certificate.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      return Optional.empty();
    }
    // Fulcio issues exactly one: a certificate naming several identities names none we could
    // match without choosing among them.
    if (names == null || names.size() != 1) {
      return Optional.empty();
    }
    List<?> name = names.iterator().next();
    boolean emailOrUri = name.get(0).equals(SAN_EMAIL) || name.get(0).equals(SAN_URI);
    return emailOrUri && name.get(1) instanceof String text ? Optional.of(text) : Optional.empty();
  }

  /** How messages and the acquisition name the signer; a URL among the names is shown without credentials. */
  @Override
  public String toString() {
    return UrlCredentials.redacted(subject) + " (issuer " + UrlCredentials.redacted(issuer)
        + sourceRepository.map(repository -> ", repository " + UrlCredentials.redacted(repository)).orElse("") + ")";
  }
}
