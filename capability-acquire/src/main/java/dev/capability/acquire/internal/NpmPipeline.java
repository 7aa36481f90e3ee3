package dev.capability.acquire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.acquire.Acquisition;
import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionListener;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.Check;
import dev.capability.acquire.Fetch;
import dev.capability.acquire.NpmCoordinates;
import dev.capability.acquire.Observations;
import dev.capability.acquire.TrustPolicy;
import dev.capability.capability.runtime.support.StrictJson;
import dev.capability.capability.runtime.support.UrlCredentials;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One npm acquisition: read the version manifest, check it names what was asked, stage the
 * tarball from the registry's origin, check its SHA-512 integrity and the registry signature,
 * record attestations as unverified, then refuse, ask the policy, or store.
 */
public final class NpmPipeline {
  private static final int MANIFEST_MAX_BYTES = 1024 * 1024;
  private static final Set<String> INSTALL_SCRIPTS = Set.of("preinstall", "install", "postinstall", "prepare");

  private final URI registry;
  private final HttpClient client;
  private final Duration bodyBudget;
  private final ContentStore store;
  private final RegistryKeys keys;
  private final TrustPolicy policy;
  private final long maxBytes;
  private final AcquisitionListener listener;

  public NpmPipeline(
      URI registry, boolean allowHttpLoopback, Duration bodyBudget, ContentStore store, RegistryKeys keys, TrustPolicy policy, long maxBytes,
      AcquisitionListener listener) {
    if (bodyBudget.isNegative() || bodyBudget.isZero()) {
      throw new IllegalArgumentException("the time budget must be positive: " + bodyBudget);
    }
    this.registry = HttpRepositorySource.checkRoot(registry, allowHttpLoopback);
    this.client = HttpRepositorySource.client();
    this.bodyBudget = bodyBudget;
    this.store = store;
    this.keys = keys;
    this.policy = policy;
    this.maxBytes = maxBytes;
    this.listener = listener;
  }

  private void record(List<Fetch> fetched, Fetch fetch) {
    fetched.add(fetch);
    listener.fetched(fetch);
  }

  public Acquisition acquire(NpmCoordinates coordinates) {
    List<Fetch> fetched = new ArrayList<>();
    URI manifestUri = registry.resolve(coordinates.encodedName() + "/" + coordinates.version());
    InputStream manifestStream = HttpRepositorySource.get(client, manifestUri, bodyBudget).orElseThrow(
        () -> new AcquisitionRefusedException(AcquisitionCodes.ARTIFACT_NOT_FOUND, manifestUri + " does not exist"));
    byte[] manifestBytes = SmallFiles.read(manifestStream, MANIFEST_MAX_BYTES, manifestUri.toString());
    record(fetched, new Fetch(manifestUri.toString(), true, manifestBytes.length, hex("SHA-256", manifestBytes)));
    JsonNode manifest;
    try {
      manifest = new StrictJson(MANIFEST_MAX_BYTES, 64).parse(manifestBytes, manifestUri.toString());
    } catch (StrictJson.StrictJsonException e) {
      throw new AcquisitionRefusedException(AcquisitionCodes.NPM_MANIFEST_INVALID, e.getMessage());
    }
    if (!manifest.path("name").asText("").equals(coordinates.name()) || !manifest.path("version").asText("").equals(coordinates.version())) {
      throw new AcquisitionRefusedException(
          AcquisitionCodes.IDENTITY_MISMATCH, manifestUri + " describes another package or version than " + coordinates);
    }
    JsonNode dist = manifest.path("dist");
    URI tarball = tarball(dist.path("tarball").asText(""), manifestUri);
    // The registry's origin carries no credentials, but a tarball URL may be signed in its query.
    String tarballShown = UrlCredentials.redacted(tarball.toString());
    InputStream tarballStream = HttpRepositorySource.get(client, tarball, bodyBudget).orElseThrow(
        () -> new AcquisitionRefusedException(AcquisitionCodes.ARTIFACT_NOT_FOUND, tarballShown + " does not exist"));
    listener.downloading(tarballShown);
    ContentStore.Staged staged = store.stage(tarballStream, maxBytes, tarballShown);
    boolean stored = false;
    try {
      record(fetched, new Fetch(tarballShown, true, staged.size(), staged.sha256()));
      String integrityText = dist.path("integrity").asText("");
      Check integrity = integrity(integrityText, dist.path("shasum").asText(""), staged);
      SignatureVerifier.Outcome signature = signature(dist.path("signatures"), coordinates, integrityText);
      JsonNode attestations = dist.path("attestations");
      Check provenance = attestations.isObject()
          ? Check.unverified(AcquisitionCodes.PROVENANCE_NOT_VERIFIED, "npm provenance attestations are listed at " + printable(UrlCredentials.redacted(attestations.path("url").asText("?"))) + "; this version does not verify them")
          : Check.absent(AcquisitionCodes.PROVENANCE_MISSING, "the registry lists no provenance attestations");
      Check sigstore = attestations.isObject()
          ? Check.unverified(
              AcquisitionCodes.SIGSTORE_UNCHECKED,
              "the attestations are Sigstore bundles whose in-toto subjects name the tarball by SHA-512; this version does not check them")
          : Check.absent(AcquisitionCodes.SIGSTORE_MISSING, "the registry lists no attestations");
      Check identity = Check.verified("the registry manifest names " + coordinates.name() + " " + coordinates.version()
          + lifecycleScripts(manifest.path("scripts")));
      Observations observations = new Observations(
          coordinates.toString(), registry.toString(), fetched, staged.sha256(), staged.digests().get("sha512"), staged.size(),
          integrity, identity, signature.check(), signature.keyFingerprint(), provenance, Optional.empty(), Optional.empty(), sigstore, Optional.empty());
      Acquisition acquisition = AcquisitionPipeline.conclude(store, staged, observations, integrity.isVerified(), policy);
      stored = acquisition.accepted();
      return acquisition;
    } finally {
      if (!stored) {
        store.discard(staged);
      }
    }
  }

  /** The tarball must come from the registry's own origin: a manifest cannot send us elsewhere. */
  private URI tarball(String text, URI manifestUri) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new AcquisitionRefusedException(AcquisitionCodes.NPM_MANIFEST_INVALID, manifestUri + " names a tarball that is not a URL");
    }
    boolean sameOrigin = uri.isAbsolute()
        && registry.getScheme().equalsIgnoreCase(uri.getScheme())
        && registry.getHost().equalsIgnoreCase(String.valueOf(uri.getHost()))
        && port(registry) == port(uri)
        && uri.getRawUserInfo() == null;
    if (!sameOrigin) {
      throw new AcquisitionRefusedException(
          AcquisitionCodes.NPM_TARBALL_ORIGIN, "the tarball " + printable(UrlCredentials.redacted(text)) + " is not on the registry's origin " + registry);
    }
    return uri;
  }

  private static int port(URI uri) {
    return uri.getPort() >= 0 ? uri.getPort() : uri.getScheme().equalsIgnoreCase("https") ? 443 : 80;
  }

  /** SRI {@code sha512-<base64>}; SHA-1 ({@code sha1-...} or {@code shasum}) never counts. */
  private static Check integrity(String integrity, String shasum, ContentStore.Staged staged) {
    boolean weakMatched = false;
    boolean strongMatched = false;
    for (String token : integrity.isBlank() ? new String[0] : integrity.strip().split("\\s+")) {
      int dash = token.indexOf('-');
      String algorithm = dash < 0 ? "" : token.substring(0, dash).toLowerCase(Locale.ROOT);
      if (!algorithm.equals("sha512") && !algorithm.equals("sha1")) {
        continue;
      }
      String expected;
      try {
        expected = HexFormat.of().formatHex(Base64.getDecoder().decode(token.substring(dash + 1).split("\\?", 2)[0]));
      } catch (IllegalArgumentException e) {
        return Check.failed(AcquisitionCodes.CHECKSUM_MALFORMED, "the integrity " + algorithm + " is not base64");
      }
      if (!expected.equals(staged.digests().get(algorithm))) {
        return Check.failed(AcquisitionCodes.CHECKSUM_MISMATCH, "the tarball's " + algorithm + " is not the manifest's integrity");
      }
      strongMatched |= algorithm.equals("sha512");
      weakMatched |= algorithm.equals("sha1");
    }
    if (!shasum.isEmpty()) {
      if (!shasum.toLowerCase(Locale.ROOT).equals(staged.digests().get("sha1"))) {
        return Check.failed(AcquisitionCodes.CHECKSUM_MISMATCH, "the tarball's sha1 is not the manifest's shasum");
      }
      weakMatched = true;
    }
    if (strongMatched) {
      return Check.verified("the tarball matches the manifest's sha512 integrity");
    }
    return weakMatched
        ? Check.failed(AcquisitionCodes.CHECKSUM_WEAK_ONLY, "the manifest gives only a SHA-1 for the tarball; SHA-512 is required")
        : Check.failed(AcquisitionCodes.CHECKSUM_MISSING, "the manifest gives no integrity for the tarball");
  }

  /** The registry signs {@code name@version:integrity} with ECDSA P-256 / SHA-256. */
  private SignatureVerifier.Outcome signature(JsonNode signatures, NpmCoordinates coordinates, String integrity) {
    if (!signatures.isArray() || signatures.isEmpty()) {
      return new SignatureVerifier.Outcome(Check.absent(AcquisitionCodes.SIGNATURE_MISSING, "the manifest carries no registry signature"), Optional.empty());
    }
    byte[] message = (coordinates.name() + "@" + coordinates.version() + ":" + integrity).getBytes(StandardCharsets.UTF_8);
    Check result = null;
    for (JsonNode entry : signatures) {
      String keyId = entry.path("keyid").asText("");
      Optional<RegistryKeys.Key> key = keys.find(keyId);
      if (key.isEmpty()) {
        result = result == null ? Check.failed(AcquisitionCodes.SIGNATURE_UNKNOWN_KEY, "the registry signature is by key " + printable(keyId) + ", which is not pinned") : result;
        continue;
      }
      if (key.get().expires().filter(expires -> expires.isBefore(Instant.now())).isPresent()) {
        result = Check.failed(AcquisitionCodes.SIGNATURE_KEY_EXPIRED, "registry key " + keyId + " expired at " + key.get().expires().get());
        continue;
      }
      try {
        Signature verifier = Signature.getInstance("SHA256withECDSA");
        verifier.initVerify(key.get().publicKey());
        verifier.update(message);
        if (verifier.verify(Base64.getDecoder().decode(entry.path("sig").asText("")))) {
          return new SignatureVerifier.Outcome(Check.verified("registry signature over name@version:integrity by key " + keyId), Optional.of(keyId));
        }
        result = Check.failed(AcquisitionCodes.SIGNATURE_INVALID, "the registry signature by key " + keyId + " does not match name@version:integrity");
      } catch (GeneralSecurityException | IllegalArgumentException e) {
        result = Check.failed(AcquisitionCodes.SIGNATURE_INVALID, "the registry signature by key " + keyId + " cannot be verified: " + e.getMessage());
      }
    }
    return new SignatureVerifier.Outcome(result, Optional.empty());
  }

  private static String lifecycleScripts(JsonNode scripts) {
    Set<String> declared = new TreeSet<>();
    scripts.fieldNames().forEachRemaining(name -> {
      if (INSTALL_SCRIPTS.contains(name)) {
        declared.add(name);
      }
    });
    return declared.isEmpty() ? "" : "; it declares lifecycle scripts " + declared + ", which acquisition never runs";
  }

  private static String printable(String value) {
    StringBuilder out = new StringBuilder();
    value.codePoints().limit(200).forEach(c -> out.append(c >= 0x20 && c < 0x7f ? Character.toString(c) : "?"));
    return out.toString();
  }

  private static String hex(String algorithm, byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is missing from this JDK", e);
    }
  }
}
