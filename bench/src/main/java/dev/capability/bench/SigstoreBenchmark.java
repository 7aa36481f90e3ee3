package dev.capability.bench;

import dev.capability.acquire.Coordinates;
import dev.capability.acquire.sigstore.SigstoreFixture;
import dev.capability.acquire.sigstore.internal.SigstoreTrustFile;
import dev.capability.acquire.sigstore.internal.SigstoreVerifier;
import dev.capability.acquire.spi.SigstoreOutcome;
import dev.sigstore.KeylessVerifier;
import dev.sigstore.TrustedRootProvider;
import dev.sigstore.VerificationOptions;
import dev.sigstore.bundle.Bundle;
import dev.sigstore.strings.StringMatcher;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Verifying one Sigstore bundle during acquisition, against the raw baseline of sigstore-java's
 * own parse-and-verify of the same bundle: what the step-by-step refusal codes and the two extra
 * log bindings cost. The deployment (CA, CT log, transparency log) is fabricated at setup.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class SigstoreBenchmark {
  private static final String ISSUER = "https://token.actions.githubusercontent.com";
  private static final String WORKFLOW = "https://github.com/example/hello/.github/workflows/release.yml@refs/tags/v1.0.0";
  private static final Coordinates COORDINATES = Coordinates.parse("com.example:hello:1.0.0@zip");

  private SigstoreVerifier acquisition;
  private KeylessVerifier library;
  private VerificationOptions expected;
  private String bundleJson;
  private byte[] bundleBytes;
  private byte[] digest;
  private String sha256;

  @Setup(Level.Trial)
  public void fabricateDeploymentAndBundle() throws Exception {
    Path operator = Files.createTempDirectory("sigstore-benchmark");
    SigstoreFixture fixture = SigstoreFixture.create();
    Path root = fixture.writeTrustedRoot(operator);
    Path trust = Files.writeString(operator.resolve("sigstore.json"), "{\"trustedRoot\": \"trusted_root.json\", \"identities\": [{\"issuer\": \""
        + ISSUER + "\", \"subject\": \"" + WORKFLOW + "\", \"coordinates\": [\"com.example:hello\"]}]}");
    acquisition = new SigstoreVerifier(SigstoreTrustFile.load(trust));
    library = KeylessVerifier.builder().trustedRootProvider(TrustedRootProvider.from(root)).build();
    expected = VerificationOptions.builder()
        .addCertificateMatchers(VerificationOptions.CertificateMatcher.fulcio()
            .issuer(StringMatcher.string(ISSUER)).subjectAlternativeName(StringMatcher.string(WORKFLOW)).build())
        .build();
    SigstoreFixture.Signed signed = fixture.sign("a capability package".getBytes(StandardCharsets.UTF_8), ISSUER, WORKFLOW);
    bundleJson = signed.bundleJson();
    bundleBytes = bundleJson.getBytes(StandardCharsets.UTF_8);
    digest = signed.artifactDigest();
    sha256 = HexFormat.of().formatHex(digest);
    if (!acquisition.verify(bundleBytes, sha256, COORDINATES, "hello-1.0.0.zip").check().isVerified()) {
      throw new IllegalStateException("the fabricated bundle does not verify");
    }
  }

  /** Baseline: sigstore-java parses the bundle and verifies it with the expected identity. */
  @Benchmark
  public Bundle sigstoreJavaAlone() throws Exception {
    Bundle bundle = Bundle.from(new StringReader(bundleJson));
    library.verify(digest, bundle, expected);
    return bundle;
  }

  /** What acquisition does with a fetched bundle. */
  @Benchmark
  public SigstoreOutcome acquisitionVerifier() {
    return acquisition.verify(bundleBytes, sha256, COORDINATES, "hello-1.0.0.zip");
  }
}
