package dev.capability.acquire.sigstore;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sigstore.bundle.Bundle;
import dev.sigstore.bundle.BundleParseException;
import dev.sigstore.encryption.certificates.Certificates;
import dev.sigstore.rekor.client.HashedRekordRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERUTF8String;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A whole Sigstore deployment made at test time, so bundle verification is tested against real
 * signatures without the network or the public-good instance.
 *
 * <p>{@link #create()} makes fresh EC P-256 keys for a Fulcio root CA, a certificate transparency
 * log and a Rekor log. {@link #trustedRootJson()} describes them the way a TUF-delivered
 * {@code trusted_root.json} does; {@link #sign} plays Fulcio, the CT log, Rekor and the signer at
 * once and returns a v0.3 bundle that sigstore-java 1.3.0 accepts. A {@link Defect} makes the
 * bundle wrong in one chosen way, to attack the verifier with.
 */
public final class SigstoreFixture {
  static final String TRUSTED_ROOT_MEDIA_TYPE = "application/vnd.dev.sigstore.trustedroot+json;version=0.1";
  static final String BUNDLE_MEDIA_TYPE = "application/vnd.dev.sigstore.bundle.v0.3+json";
  static final String CA_ORGANIZATION = "fixture.test";
  static final String CA_COMMON_NAME = "fixture-fulcio";

  private static final ASN1ObjectIdentifier FULCIO_ISSUER = new ASN1ObjectIdentifier("1.3.6.1.4.1.57264.1.8");
  private static final ASN1ObjectIdentifier FULCIO_SOURCE_REPOSITORY = new ASN1ObjectIdentifier("1.3.6.1.4.1.57264.1.12");
  private static final ASN1ObjectIdentifier FULCIO_ISSUER_LEGACY = new ASN1ObjectIdentifier("1.3.6.1.4.1.57264.1.1");
  private static final ASN1ObjectIdentifier EMBEDDED_SCT_LIST = new ASN1ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2");
  private static final String KEY_DETAILS = "PKIX_ECDSA_P256_SHA_256";
  private static final String REKOR_NAME = "rekor.fixture.test";
  private static final String CHECKPOINT_ORIGIN = REKOR_NAME + " - 1";
  // Other entries share the log with ours, so the inclusion proof walks a real tree, not a lone leaf.
  private static final int TREE_SIZE = 5;
  private static final int ENTRY_INDEX = 3;
  private static final Duration LEAF_LIFETIME = Duration.ofMinutes(10);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What {@link #sign} gets wrong on purpose; each but {@link #NONE} is an attack a verifier must refuse. */
  public enum Defect {
    /** Nothing: a bundle sigstore-java accepts. */
    NONE,
    /** The leaf is issued by a CA with the trusted CA's name but another key, so its chain does not reach the trusted root. */
    UNTRUSTED_CA,
    /** The leaf carries no embedded SCT. */
    NO_SCT,
    /** The leaf's only SCT is signed by a CT log the trusted root does not list. */
    SCT_FROM_UNKNOWN_LOG,
    /** The Rekor entry names the trusted log, but its signed entry timestamp is signed by another key. */
    SET_FROM_UNKNOWN_KEY,
    /** The inclusion proof claims a root hash its hashes do not lead to (the checkpoint, signed by the log, agrees with the claim). */
    WRONG_ROOT_HASH,
    /** The checkpoint, signed by the log, is for a root hash other than the inclusion proof's. */
    CHECKPOINT_MISMATCH,
    /** The leaf names a second subject alternative name, an attacker's email, after the expected subject. */
    SECOND_SUBJECT,
    /** The entry's log index (which the signed entry timestamp covers) is not the inclusion proof's. */
    LOG_INDEX_MISMATCH,
    /** The checkpoint, signed by the log, is for another tree size than the inclusion proof's. */
    CHECKPOINT_SIZE_MISMATCH,
    /** Message digest and signature are over other bytes, and the log entry agrees with them rather than with the artifact. */
    SIGNATURE_OVER_OTHER_BYTES,
    /** The entry's integrated time lies after the leaf certificate expired. */
    INTEGRATED_AFTER_EXPIRY
  }

  /**
   * One signing: the bundle's JSON, the digest of the artifact that was asked to be signed, and the
   * leaf certificate inside the bundle.
   */
  public record Signed(String bundleJson, byte[] artifactDigest, X509Certificate leaf) {
    public Signed {
      Objects.requireNonNull(bundleJson, "bundleJson");
      artifactDigest = Objects.requireNonNull(artifactDigest, "artifactDigest").clone();
      Objects.requireNonNull(leaf, "leaf");
    }

    @Override
    public byte[] artifactDigest() {
      return artifactDigest.clone();
    }

    /** {@link #artifactDigest()} in lowercase hex. */
    public String artifactSha256Hex() {
      return HexFormat.of().formatHex(artifactDigest);
    }

    /** The bundle as sigstore-java reads it. */
    Bundle bundle() {
      try {
        return Bundle.from(new StringReader(bundleJson));
      } catch (BundleParseException e) {
        throw new IllegalStateException("the fixture wrote a bundle sigstore-java cannot read", e);
      }
    }
  }

  private final SecureRandom random;
  private final Instant validFrom;
  private final KeyPair caKeys;
  private final X509Certificate caCertificate;
  private final KeyPair ctKeys;
  private final KeyPair rekorKeys;

  private SigstoreFixture(SecureRandom random, Instant validFrom, KeyPair caKeys, X509Certificate caCertificate, KeyPair ctKeys, KeyPair rekorKeys) {
    this.random = random;
    this.validFrom = validFrom;
    this.caKeys = caKeys;
    this.caCertificate = caCertificate;
    this.ctKeys = ctKeys;
    this.rekorKeys = rekorKeys;
  }

  /** A fresh deployment whose CA and logs have been valid since a day ago. */
  public static SigstoreFixture create() {
    SecureRandom random = new SecureRandom();
    Instant validFrom = Instant.now().minus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);
    KeyPair caKeys = newKeyPair(random);
    X509Certificate ca = selfSignedCa(caKeys, validFrom, random);
    return new SigstoreFixture(random, validFrom, caKeys, ca, newKeyPair(random), newKeyPair(random));
  }

  /** The self-signed Fulcio root every good leaf chains to. */
  X509Certificate fulcioRoot() {
    return caCertificate;
  }

  /**
   * The trusted root in the protobuf JSON form {@code TrustedRootProvider.from(Path)} reads: this
   * deployment's CA, its Rekor log under {@code tlogs}, its CT log under {@code ctlogs}, and no
   * timestamp authorities.
   */
  String trustedRootJson() {
    try {
      ObjectNode root = JSON.createObjectNode();
      root.put("mediaType", TRUSTED_ROOT_MEDIA_TYPE);
      root.putArray("tlogs").add(transparencyLog("https://" + REKOR_NAME, rekorKeys.getPublic()));
      ObjectNode ca = root.putArray("certificateAuthorities").addObject();
      ca.putObject("subject").put("organization", CA_ORGANIZATION).put("commonName", CA_COMMON_NAME);
      ca.put("uri", "https://fulcio.fixture.test");
      ca.putObject("certChain").putArray("certificates").addObject().put("rawBytes", base64(caCertificate.getEncoded()));
      ca.putObject("validFor").put("start", validFrom.toString());
      root.putArray("ctlogs").add(transparencyLog("https://ctfe.fixture.test", ctKeys.getPublic()));
      root.putArray("timestampAuthorities");
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("could not write the trusted root", e);
    }
  }

  /** Writes {@link #trustedRootJson()} to {@code trusted_root.json} in {@code directory}. */
  public Path writeTrustedRoot(Path directory) {
    try {
      return Files.writeString(directory.resolve("trusted_root.json"), trustedRootJson());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A good bundle for {@code artifact}; see {@link #sign(byte[], String, String, Defect)}. */
  public Signed sign(byte[] artifact, String issuer, String subject) {
    return sign(artifact, issuer, subject, Defect.NONE);
  }

  /**
   * Signs {@code artifact} as Sigstore's keyless flow does: a fresh signer key, a leaf certificate
   * for it naming {@code issuer} (the OIDC issuer, in both Fulcio issuer extensions) and {@code
   * subject} (the only SAN: a URI when it contains {@code ://}, an email otherwise) with an
   * embedded SCT, a hashedrekord entry in a five-leaf Rekor tree with a signed entry timestamp,
   * an inclusion proof and a signed checkpoint. {@code defect} spoils exactly one of those.
   */
  public Signed sign(byte[] artifact, String issuer, String subject, Defect defect) {
    return sign(artifact, issuer, subject, defect, Optional.empty());
  }

  /** A good bundle whose certificate also names the source repository (Fulcio's extension 1.3.6.1.4.1.57264.1.12). */
  public Signed sign(byte[] artifact, String issuer, String subject, String sourceRepository) {
    return sign(artifact, issuer, subject, Defect.NONE, Optional.of(sourceRepository));
  }

  private Signed sign(byte[] artifact, String issuer, String subject, Defect defect, Optional<String> sourceRepository) {
    Objects.requireNonNull(artifact, "artifact");
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(defect, "defect");
    try {
      Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      Instant notBefore = now.minus(Duration.ofMinutes(1));
      Instant notAfter = notBefore.plus(LEAF_LIFETIME);
      KeyPair signer = newKeyPair(random);
      X509Certificate leaf = issueLeaf(signer.getPublic(), issuer, subject, notBefore, notAfter, defect, sourceRepository);

      byte[] signedBytes = defect == Defect.SIGNATURE_OVER_OTHER_BYTES
          ? ("not the artifact: " + base64(artifact)).getBytes(StandardCharsets.UTF_8)
          : artifact;
      byte[] signedDigest = sha256(signedBytes);
      byte[] signature = sign("SHA256withECDSA", signer.getPrivate(), signedBytes);
      byte[] body = HashedRekordRequest.newHashedRekordRequest(signedDigest, Certificates.toPemBytes(leaf), signature)
          .toJsonPayload().getBytes(StandardCharsets.UTF_8);
      long integratedTime = (defect == Defect.INTEGRATED_AFTER_EXPIRY ? notAfter.plus(Duration.ofHours(1)) : now).getEpochSecond();

      ObjectNode bundle = JSON.createObjectNode();
      bundle.put("mediaType", BUNDLE_MEDIA_TYPE);
      ObjectNode material = bundle.putObject("verificationMaterial");
      material.putObject("certificate").put("rawBytes", base64(leaf.getEncoded()));
      material.putArray("tlogEntries").add(logEntry("hashedrekord", body, integratedTime, defect));
      ObjectNode messageSignature = bundle.putObject("messageSignature");
      messageSignature.putObject("messageDigest").put("algorithm", "SHA2_256").put("digest", base64(signedDigest));
      messageSignature.put("signature", base64(signature));
      return new Signed(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(bundle), sha256(artifact), leaf);
    } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("could not sign", e);
    }
  }

  /**
   * A DSSE attestation by the signer: an in-toto statement whose one subject names the artifact by
   * SHA-256, with {@code predicateType} and an arbitrary predicate, logged as a dsse entry. This is
   * not a signature of the artifact, but sigstore-java 1.3.0 verifies it as one.
   */
  public Signed attest(byte[] artifact, String issuer, String subject, String predicateType) {
    try {
      Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      Instant notBefore = now.minus(Duration.ofMinutes(1));
      KeyPair signer = newKeyPair(random);
      X509Certificate leaf = issueLeaf(signer.getPublic(), issuer, subject, notBefore, notBefore.plus(LEAF_LIFETIME), Defect.NONE, Optional.empty());
      ObjectNode statement = JSON.createObjectNode();
      statement.put("_type", "https://in-toto.io/Statement/v1");
      statement.putArray("subject").addObject().put("name", "anything").putObject("digest").put("sha256", HexFormat.of().formatHex(sha256(artifact)));
      statement.put("predicateType", predicateType);
      statement.putObject("predicate").put("verdict", "whatever the signer says about these bytes");
      byte[] payload = JSON.writeValueAsBytes(statement);
      String payloadType = "application/vnd.in-toto+json";
      byte[] preAuthenticationEncoding = concat(
          ("DSSEv1 " + payloadType.length() + " " + payloadType + " " + payload.length + " ").getBytes(StandardCharsets.UTF_8), payload);
      byte[] signature = sign("SHA256withECDSA", signer.getPrivate(), preAuthenticationEncoding);
      ObjectNode envelope = JSON.createObjectNode();
      envelope.put("payload", base64(payload));
      envelope.put("payloadType", payloadType);
      envelope.putArray("signatures").addObject().put("sig", base64(signature)).put("keyid", "");
      ObjectNode body = JSON.createObjectNode().put("apiVersion", "0.0.1").put("kind", "dsse");
      ObjectNode spec = body.putObject("spec");
      spec.putObject("envelopeHash").put("algorithm", "sha256").put("value", HexFormat.of().formatHex(sha256(JSON.writeValueAsBytes(envelope))));
      spec.putObject("payloadHash").put("algorithm", "sha256").put("value", HexFormat.of().formatHex(sha256(payload)));
      spec.putArray("signatures").addObject()
          .put("signature", base64(signature))
          .put("verifier", base64(Certificates.toPemBytes(leaf)));

      ObjectNode bundle = JSON.createObjectNode();
      bundle.put("mediaType", BUNDLE_MEDIA_TYPE);
      ObjectNode material = bundle.putObject("verificationMaterial");
      material.putObject("certificate").put("rawBytes", base64(leaf.getEncoded()));
      material.putArray("tlogEntries").add(logEntry("dsse", JSON.writeValueAsBytes(body), now.getEpochSecond(), Defect.NONE));
      bundle.set("dsseEnvelope", envelope);
      return new Signed(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(bundle), sha256(artifact), leaf);
    } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("could not attest", e);
    }
  }

  private ObjectNode transparencyLog(String baseUrl, PublicKey key) throws GeneralSecurityException {
    ObjectNode log = JSON.createObjectNode();
    log.put("baseUrl", baseUrl);
    log.put("hashAlgorithm", "SHA2_256");
    ObjectNode publicKey = log.putObject("publicKey");
    publicKey.put("rawBytes", base64(key.getEncoded()));
    publicKey.put("keyDetails", KEY_DETAILS);
    publicKey.putObject("validFor").put("start", validFrom.toString());
    log.putObject("logId").put("keyId", base64(sha256(key.getEncoded())));
    return log;
  }

  private X509Certificate issueLeaf(
      PublicKey leafKey, String issuer, String subject, Instant notBefore, Instant notAfter, Defect defect, Optional<String> sourceRepository)
      throws GeneralSecurityException, IOException, OperatorCreationException {
    KeyPair issuingKeys = defect == Defect.UNTRUSTED_CA ? newKeyPair(random) : caKeys;
    X500Name issuerName = X500Name.getInstance(caCertificate.getSubjectX500Principal().getEncoded());
    BigInteger serial = new BigInteger(128, random);
    X509v3CertificateBuilder precertificate = leafBuilder(issuerName, serial, notBefore, notAfter, leafKey, issuer, subject, defect, sourceRepository);
    if (defect == Defect.NO_SCT) {
      return signCertificate(precertificate, issuingKeys.getPrivate());
    }
    // The CT log signs the TBS without the SCT extension; sigstore-java rebuilds that TBS by
    // dropping the extension, so the final certificate repeats every field and adds the SCT last.
    byte[] precertificateTbs = signCertificate(precertificate, issuingKeys.getPrivate()).getTBSCertificate();
    KeyPair ctLog = defect == Defect.SCT_FROM_UNKNOWN_LOG ? newKeyPair(random) : ctKeys;
    byte[] sct = signedCertificateTimestamp(ctLog, Instant.now().toEpochMilli(), sha256(issuingKeys.getPublic().getEncoded()), precertificateTbs);
    X509v3CertificateBuilder certificate = leafBuilder(issuerName, serial, notBefore, notAfter, leafKey, issuer, subject, defect, sourceRepository);
    certificate.addExtension(EMBEDDED_SCT_LIST, false, new DEROctetString(sctList(sct)));
    return signCertificate(certificate, issuingKeys.getPrivate());
  }

  private static X509v3CertificateBuilder leafBuilder(
      X500Name issuerName, BigInteger serial, Instant notBefore, Instant notAfter, PublicKey key, String issuer, String subject, Defect defect,
      Optional<String> sourceRepository)
      throws IOException {
    // Like Fulcio: an empty subject, the identity only in a critical SAN.
    X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
        issuerName, serial, Date.from(notBefore), Date.from(notAfter), new X500Name(new RDN[0]), key);
    builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
    builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_codeSigning));
    int nameType = subject.contains("://") ? GeneralName.uniformResourceIdentifier : GeneralName.rfc822Name;
    GeneralNames names = defect == Defect.SECOND_SUBJECT
        ? new GeneralNames(new GeneralName[] {new GeneralName(nameType, subject), new GeneralName(GeneralName.rfc822Name, "attacker@example.net")})
        : new GeneralNames(new GeneralName(nameType, subject));
    builder.addExtension(Extension.subjectAlternativeName, true, names);
    builder.addExtension(FULCIO_ISSUER_LEGACY, false, issuer.getBytes(StandardCharsets.UTF_8));
    builder.addExtension(FULCIO_ISSUER, false, new DERUTF8String(issuer));
    if (sourceRepository.isPresent()) {
      builder.addExtension(FULCIO_SOURCE_REPOSITORY, false, new DERUTF8String(sourceRepository.get()));
    }
    return builder;
  }

  /** RFC 6962 SignedCertificateTimestamp (v1) over a precertificate entry. */
  private static byte[] signedCertificateTimestamp(KeyPair ctLog, long timestampMillis, byte[] issuerKeyHash, byte[] precertificateTbs)
      throws GeneralSecurityException {
    ByteArrayOutputStream signedData = new ByteArrayOutputStream();
    signedData.write(0); // version v1
    signedData.write(0); // signature type: certificate_timestamp
    writeNumber(signedData, timestampMillis, 8);
    writeNumber(signedData, 1, 2); // entry type: precert_entry
    signedData.writeBytes(issuerKeyHash);
    writeNumber(signedData, precertificateTbs.length, 3);
    signedData.writeBytes(precertificateTbs);
    writeNumber(signedData, 0, 2); // no extensions
    byte[] signature = sign("SHA256withECDSA", ctLog.getPrivate(), signedData.toByteArray());

    ByteArrayOutputStream sct = new ByteArrayOutputStream();
    sct.write(0);
    sct.writeBytes(sha256(ctLog.getPublic().getEncoded()));
    writeNumber(sct, timestampMillis, 8);
    writeNumber(sct, 0, 2);
    sct.write(4); // hash: sha256
    sct.write(3); // signature: ecdsa
    writeNumber(sct, signature.length, 2);
    sct.writeBytes(signature);
    return sct.toByteArray();
  }

  private static byte[] sctList(byte[] sct) {
    ByteArrayOutputStream list = new ByteArrayOutputStream();
    writeNumber(list, sct.length + 2, 2);
    writeNumber(list, sct.length, 2);
    list.writeBytes(sct);
    return list.toByteArray();
  }

  private ObjectNode logEntry(String kind, byte[] body, long integratedTime, Defect defect) throws GeneralSecurityException {
    byte[] logId = sha256(rekorKeys.getPublic().getEncoded());
    List<byte[]> leaves = new ArrayList<>();
    for (int index = 0; index < TREE_SIZE; index++) {
      byte[] content = index == ENTRY_INDEX ? body : ("another entry " + index).getBytes(StandardCharsets.UTF_8);
      leaves.add(leafHash(content));
    }
    byte[] rootHash = defect == Defect.WRONG_ROOT_HASH ? sha256("not the root".getBytes(StandardCharsets.UTF_8)) : treeHash(leaves);
    byte[] checkpointHash = defect == Defect.CHECKPOINT_MISMATCH ? sha256("another root".getBytes(StandardCharsets.UTF_8)) : rootHash;

    int entryIndex = defect == Defect.LOG_INDEX_MISMATCH ? ENTRY_INDEX + 1 : ENTRY_INDEX;
    // The signed entry timestamp covers the canonical JSON (RFC 8785) of these four members, in this order.
    String signable = "{\"body\":\"" + base64(body) + "\",\"integratedTime\":" + integratedTime
        + ",\"logID\":\"" + HexFormat.of().formatHex(logId) + "\",\"logIndex\":" + entryIndex + "}";
    PrivateKey setKey = defect == Defect.SET_FROM_UNKNOWN_KEY ? newKeyPair(random).getPrivate() : rekorKeys.getPrivate();
    byte[] signedEntryTimestamp = sign("SHA256withECDSA", setKey, signable.getBytes(StandardCharsets.UTF_8));

    ObjectNode entry = JSON.createObjectNode();
    entry.put("logIndex", Integer.toString(entryIndex));
    entry.putObject("logId").put("keyId", base64(logId));
    entry.putObject("kindVersion").put("kind", kind).put("version", "0.0.1");
    entry.put("integratedTime", Long.toString(integratedTime));
    entry.putObject("inclusionPromise").put("signedEntryTimestamp", base64(signedEntryTimestamp));
    ObjectNode proof = entry.putObject("inclusionProof");
    proof.put("logIndex", Integer.toString(ENTRY_INDEX));
    proof.put("rootHash", base64(rootHash));
    proof.put("treeSize", Integer.toString(TREE_SIZE));
    ArrayNode hashes = proof.putArray("hashes");
    auditPath(ENTRY_INDEX, leaves).forEach(hash -> hashes.add(base64(hash)));
    int checkpointSize = defect == Defect.CHECKPOINT_SIZE_MISMATCH ? TREE_SIZE + 94 : TREE_SIZE;
    proof.putObject("checkpoint").put("envelope", checkpoint(checkpointSize, checkpointHash));
    entry.put("canonicalizedBody", base64(body));
    return entry;
  }

  /** A signed note: the header, a blank line, and one signature line of key hint and signature. */
  private String checkpoint(int treeSize, byte[] rootHash) throws GeneralSecurityException {
    String header = CHECKPOINT_ORIGIN + "\n" + treeSize + "\n" + base64(rootHash) + "\n";
    byte[] signature = sign("SHA256withECDSA", rekorKeys.getPrivate(), header.getBytes(StandardCharsets.UTF_8));
    byte[] keyHint = sha256(rekorKeys.getPublic().getEncoded());
    byte[] hintAndSignature = ByteBuffer.allocate(4 + signature.length).put(keyHint, 0, 4).put(signature).array();
    return header + "\n\u2014 " + REKOR_NAME + " " + base64(hintAndSignature) + "\n";
  }

  // RFC 6962 section 2.1: leaves and nodes are hashed with distinct prefixes; a tree of n leaves
  // splits at the largest power of two below n.
  private static byte[] leafHash(byte[] content) throws GeneralSecurityException {
    return sha256(concat(new byte[] {0}, content));
  }

  private static byte[] nodeHash(byte[] left, byte[] right) throws GeneralSecurityException {
    return sha256(concat(new byte[] {1}, left, right));
  }

  private static byte[] treeHash(List<byte[]> leaves) throws GeneralSecurityException {
    if (leaves.size() == 1) {
      return leaves.get(0);
    }
    int split = largestPowerOfTwoBelow(leaves.size());
    return nodeHash(treeHash(leaves.subList(0, split)), treeHash(leaves.subList(split, leaves.size())));
  }

  private static List<byte[]> auditPath(int index, List<byte[]> leaves) throws GeneralSecurityException {
    if (leaves.size() == 1) {
      return new ArrayList<>();
    }
    int split = largestPowerOfTwoBelow(leaves.size());
    List<byte[]> path;
    if (index < split) {
      path = auditPath(index, leaves.subList(0, split));
      path.add(treeHash(leaves.subList(split, leaves.size())));
    } else {
      path = auditPath(index - split, leaves.subList(split, leaves.size()));
      path.add(treeHash(leaves.subList(0, split)));
    }
    return path;
  }

  private static int largestPowerOfTwoBelow(int size) {
    return Integer.highestOneBit(size - 1);
  }

  private static X509Certificate selfSignedCa(KeyPair keys, Instant validFrom, SecureRandom random) {
    try {
      X500Name name = new X500Name("O=" + CA_ORGANIZATION + ",CN=" + CA_COMMON_NAME);
      X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
          name, new BigInteger(128, random), Date.from(validFrom), Date.from(validFrom.plus(Duration.ofDays(30))), name, keys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      return signCertificate(builder, keys.getPrivate());
    } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("could not make the fixture CA", e);
    }
  }

  private static X509Certificate signCertificate(X509v3CertificateBuilder builder, PrivateKey issuerKey)
      throws GeneralSecurityException, OperatorCreationException {
    return new JcaX509CertificateConverter().getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
  }

  private static KeyPair newKeyPair(SecureRandom random) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), random);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no EC P-256 key pair generator", e);
    }
  }

  private static byte[] sign(String algorithm, PrivateKey key, byte[] data) throws GeneralSecurityException {
    Signature signature = Signature.getInstance(algorithm);
    signature.initSign(key);
    signature.update(data);
    return signature.sign();
  }

  private static byte[] sha256(byte[] data) throws GeneralSecurityException {
    return MessageDigest.getInstance("SHA-256").digest(data);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      joined.writeBytes(part);
    }
    return joined.toByteArray();
  }

  private static void writeNumber(ByteArrayOutputStream out, long value, int bytes) {
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
      out.write((int) (value >>> shift) & 0xff);
    }
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}
