package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import dev.capability.backend.bwrap.BwrapBackendProvider;
import dev.capability.backend.tck.BackendGate;
import dev.capability.acquire.PgpFixture;
import dev.capability.acquire.RepositoryFixture;
import dev.capability.acquire.sigstore.SigstoreFixture;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.ledger.internal.ChainHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code acquire} against a real loopback Maven repository, then {@code inspect} and {@code run} of what it stored. */
class AcquireCommandTest {
  private static final BackendGate BWRAP = BackendGate.of(new BwrapBackendProvider(), BackendConfig.defaults());
  private static final String PATH = "com/example/hello/1.0.0/hello-1.0.0.zip";
  private static final String SOURCE = "https://github.com/example/hello";
  private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";
  private static final String OIDC_ISSUER = "https://token.actions.githubusercontent.com";
  private static final String WORKFLOW = "https://github.com/example/hello/.github/workflows/release.yml@refs/tags/v1.0.0";

  @TempDir Path work;
  private RepositoryFixture repository;
  private Path keyring;
  private PgpFixture release;
  private byte[] packageBytes;

  @BeforeEach
  void publishHelloOnLoopback() throws Exception {
    repository = new RepositoryFixture(Files.createDirectories(work.resolve("server")));
    release = PgpFixture.generate("Hello Release <release@example.com>");
    Files.writeString(work.resolve("release.asc"), release.armoredPublicKey());
    keyring = work.resolve("keyring.json");
    Files.writeString(keyring, "{\"keys\":[{\"fingerprint\":\"" + release.fingerprint()
        + "\",\"publicKeyFile\":\"release.asc\",\"coordinates\":[\"com.example:hello\"]}]}");

    packageBytes = helloPackage();
    byte[] statement = statement(SOURCE);
    repository.write(PATH, packageBytes);
    repository.write(PATH + ".sha512", RepositoryFixture.hex("SHA-512", packageBytes));
    repository.write(PATH + ".asc", release.sign(packageBytes));
    repository.write(PATH + ".intoto.json", statement);
    repository.write(PATH + ".intoto.json.asc", release.sign(statement));
  }

  /** An in-toto SLSA statement for the package naming {@code source} at {@link #COMMIT}. */
  private byte[] statement(String source) {
    return ("{\"_type\":\"https://in-toto.io/Statement/v1\","
        + "\"subject\":[{\"name\":\"hello-1.0.0.zip\",\"digest\":{\"sha256\":\"" + RepositoryFixture.hex("SHA-256", packageBytes) + "\"}}],"
        + "\"predicateType\":\"https://slsa.dev/provenance/v1\","
        + "\"predicate\":{\"buildDefinition\":{\"buildType\":\"https://example.com/build/v1\",\"externalParameters\":{},"
        + "\"resolvedDependencies\":[{\"uri\":\"git+" + source + "@refs/tags/v1.0.0\",\"digest\":{\"gitCommit\":\"" + COMMIT + "\"}}]},"
        + "\"runDetails\":{\"builder\":{\"id\":\"https://example.com/builder\"}}}}").getBytes(StandardCharsets.UTF_8);
  }

  @AfterEach
  void stopServer() {
    repository.close();
  }

  @Test
  void acquiresStrictlyThenInspectsAndRunsTheStoredPackage() {
    Path store = work.resolve("store");

    CliRunner.Outcome acquired = CliRunner.run(acquire(store, "--json"));

    assertThat(acquired.exitCode()).as(acquired.out() + acquired.err()).isZero();
    JsonNode view = json(acquired.out());
    String stored = view.path("stored").asText();
    assertThat(stored).isEqualTo(store.resolve("sha256").resolve(RepositoryFixture.hex("SHA-256", packageBytes)).toString());
    assertThat(view.path("decision").path("code").asText()).isEqualTo("ACQUIRED");
    assertThat(view.path("decision").path("policy").asText()).isEqualTo("strict");
    assertThat(view.path("observations").path("signature").path("status").asText()).isEqualTo("VERIFIED");
    assertThat(view.path("observations").path("provenance").path("commit").asText()).isEqualTo(COMMIT);
    assertThat(view.path("score").path("advisory").asBoolean()).isTrue();

    CliRunner.Outcome inspected = CliRunner.run("inspect", stored);
    assertThat(inspected.exitCode()).as(inspected.err()).isZero();
    assertThat(inspected.out()).contains("name: hello");

    BWRAP.backend();
    CliRunner.Outcome ran = CliRunner.run("run", stored, "--input", "{\"name\":\"Ada\"}", "--no-ledger", "--json");
    assertThat(ran.exitCode()).as(ran.out() + ran.err()).isZero();
    assertThat(ran.out()).contains("\"boundaryApplied\":true").contains("Hello, Ada!");
  }

  @Test
  void verifiesASigstoreBundleAgainstTheOperatorsTrustedRootAndNamesTheSigner() throws IOException {
    SigstoreFixture sigstore = SigstoreFixture.create();
    Path trust = sigstoreTrust(sigstore);
    repository.write(PATH + ".sigstore.json", sigstore.sign(packageBytes, OIDC_ISSUER, WORKFLOW).bundleJson().getBytes(StandardCharsets.UTF_8));

    CliRunner.Outcome acquired = CliRunner.run(acquire(work.resolve("store"), "--sigstore", trust.toString(), "--json"));

    assertThat(acquired.exitCode()).as(acquired.out() + acquired.err()).isZero();
    JsonNode bundle = json(acquired.out()).path("observations").path("sigstore");
    assertThat(bundle.path("status").asText()).as(bundle.toString()).isEqualTo("VERIFIED");
    assertThat(bundle.path("signer").asText()).isEqualTo(WORKFLOW + " (issuer " + OIDC_ISSUER + ")");
    assertThat(json(acquired.out()).path("score").path("total").asInt()).isEqualTo(100);
  }

  @Test
  void refusesASigstoreBundleByAnUnexpectedSignerWithExitThree() throws IOException {
    SigstoreFixture sigstore = SigstoreFixture.create();
    Path trust = sigstoreTrust(sigstore);
    String attacker = "https://github.com/attacker/hello/.github/workflows/release.yml@refs/heads/main";
    repository.write(PATH + ".sigstore.json", sigstore.sign(packageBytes, OIDC_ISSUER, attacker).bundleJson().getBytes(StandardCharsets.UTF_8));
    Path store = work.resolve("store");

    CliRunner.Outcome refused = CliRunner.run(acquire(store, "--sigstore", trust.toString()));

    assertThat(refused.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(refused.err()).contains("SIGSTORE_IDENTITY_UNKNOWN").contains(attacker);
    assertThat(refused.out()).contains("sigstore: FAILED SIGSTORE_IDENTITY_UNKNOWN").contains("[signer " + attacker);
    try (Stream<Path> files = Files.walk(store)) {
      assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
    }
  }

  @Test
  void aMalformedSigstoreTrustFileIsRefusedBeforeAnythingIsFetched() throws IOException {
    Path trust = Files.writeString(work.resolve("sigstore.json"), "{\"trustedRoot\": \"trusted_root.json\", \"identities\": []}");

    CliRunner.Outcome refused = CliRunner.run(acquire(work.resolve("store"), "--sigstore", trust.toString(), "--json"));

    assertThat(refused.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(json(refused.out()).path("error").path("code").asText()).isEqualTo("SIGSTORE_TRUST_INVALID");
    assertThat(work.resolve("store")).doesNotExist();
    assertThat(work.resolve(".capability")).doesNotExist();
  }

  @Test
  void printsObservationsAndTheScoreInPlainText() {
    CliRunner.Outcome acquired = CliRunner.run(acquire(work.resolve("store")));

    assertThat(acquired.exitCode()).as(acquired.err()).isZero();
    assertThat(acquired.out())
        .contains("decision: ACQUIRED (policy strict)")
        .contains("signature: VERIFIED")
        .contains("provenance: VERIFIED")
        .contains("score: 85/100 (advisory; grants nothing");
  }

  @Test
  void showsTheDownloadOnStderrButNotUnderJsonOrQuiet() {
    CliRunner.Outcome plain = CliRunner.run(acquire(work.resolve("store")));
    CliRunner.Outcome json = CliRunner.run(acquire(work.resolve("store-json"), "--json"));
    CliRunner.Outcome quiet = CliRunner.run(acquire(work.resolve("store-quiet"), "--quiet"));

    assertThat(plain.exitCode()).as(plain.err()).isZero();
    assertThat(plain.err())
        .contains("capability: downloading " + uri() + PATH + "\n")
        .contains("capability: downloaded " + packageBytes.length + " bytes; verifying\n");
    assertThat(json.exitCode()).isZero();
    assertThat(json.err()).isEmpty();
    assertThat(quiet.exitCode()).isZero();
    assertThat(quiet.err()).isEmpty();
    assertThat(quiet.out()).contains("decision: ACQUIRED");
  }

  @Test
  void aTamperedPackageIsRefusedWithExitThreeAndNothingStored() throws IOException {
    byte[] tampered = packageBytes.clone();
    tampered[10] ^= 1;
    repository.write(PATH, tampered);
    Path store = work.resolve("store");

    CliRunner.Outcome refused = CliRunner.run(acquire(store));

    assertThat(refused.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(refused.err()).contains("CHECKSUM_MISMATCH");
    assertThat(refused.out()).contains("stored: (nothing stored)");
    try (Stream<Path> files = Files.walk(store)) {
      assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
    }
  }

  @Test
  void anUnsignedPackageIsRefusedByStrictWithTheCodeInJson() throws IOException {
    repository.delete(PATH + ".asc");

    CliRunner.Outcome refused = CliRunner.run(acquire(work.resolve("store"), "--json"));

    assertThat(refused.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(json(refused.out()).path("decision").path("code").asText()).isEqualTo("SIGNATURE_MISSING");
  }

  @Test
  void anAcceptedAcquisitionIsRecordedInTheLedgerWhichVerifies() {
    CliRunner.Outcome acquired = CliRunner.run(acquire(work.resolve("store"), "--json"));
    assertThat(acquired.exitCode()).as(acquired.out() + acquired.err()).isZero();
    String sha256 = RepositoryFixture.hex("SHA-256", packageBytes);

    CliRunner.Outcome listed = ledger("list");
    assertThat(listed.exitCode()).as(listed.err()).isZero();
    assertThat(listed.out().lines().toList()).singleElement().asString()
        .startsWith("1  ").contains("  acquisition  ACQUIRED  -  \"com.example:hello:1.0.0@zip\" sha256:" + sha256);
    JsonNode record = json(ledger("show", "1", "--json").out());
    assertThat(record.path("hashMatches").asBoolean()).isTrue();
    assertThat(record.path("body")).isEqualTo(json(acquired.out()));
    assertThat(record.path("body").path("decision").path("accepted").asBoolean()).isTrue();
    assertThat(record.path("body").path("observations").path("signature").path("status").asText()).isEqualTo("VERIFIED");

    CliRunner.Outcome verified = ledger("verify");
    assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
    assertThat(verified.out()).startsWith("INTACT: 1 records");

    CliRunner.Outcome exported = ledger("export", "--format", "intoto");
    assertThat(exported.exitCode()).as(exported.err()).isZero();
    JsonNode statement = json(new String(java.util.Base64.getDecoder().decode(json(exported.out()).path("payload").asText()),
        StandardCharsets.UTF_8));
    assertThat(statement.path("predicateType").asText()).isEqualTo("https://capability.dev/ledger/acquisition/v1");
    assertThat(statement.path("subject").get(0).path("name").asText()).isEqualTo("com.example:hello:1.0.0@zip");
    assertThat(statement.path("subject").get(0).path("digest").path("sha256").asText()).isEqualTo(sha256);
  }

  @Test
  void aTamperedPackageIsRecordedAsRefusedWithWhatWasObserved() throws IOException {
    byte[] tampered = packageBytes.clone();
    tampered[10] ^= 1;
    repository.write(PATH, tampered);

    CliRunner.Outcome refused = CliRunner.run(acquire(work.resolve("store")));
    assertThat(refused.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);

    JsonNode records = json(ledger("list", "--json", "--kind", "acquisition").out()).path("records");
    assertThat(records).hasSize(1);
    assertThat(records.get(0).path("status").asText()).isEqualTo("REFUSED");
    assertThat(records.get(0).path("decisionCode").asText()).isEqualTo("CHECKSUM_MISMATCH");
    assertThat(records.get(0).path("sha256").asText()).isEqualTo(RepositoryFixture.hex("SHA-256", tampered));
    assertThat(ledger("list").out()).contains("acquisition  REFUSED").endsWith("CHECKSUM_MISMATCH" + System.lineSeparator());
    JsonNode body = json(ledger("show", "1", "--json").out()).path("body");
    assertThat(body.path("decision").path("accepted").isBoolean()).isTrue();
    assertThat(body.path("decision").path("accepted").asBoolean()).isFalse();
    assertThat(body.path("stored").isNull()).isTrue();
    assertThat(body.path("observations").path("integrity").path("status").asText()).isEqualTo("FAILED");
    assertThat(ledger("verify").exitCode()).isZero();
  }

  @Test
  void noLedgerRecordsNothing() {
    CliRunner.Outcome acquired = CliRunner.run(acquire(work.resolve("store"), "--no-ledger"));

    assertThat(acquired.exitCode()).as(acquired.err()).isZero();
    assertThat(work.resolve("store").resolve("sha256").resolve(RepositoryFixture.hex("SHA-256", packageBytes))).isRegularFile();
    assertThat(work.resolve(".capability")).doesNotExist();
  }

  @Test
  void aRefusalRewrittenAsAnAcceptanceInTheDatabaseFailsVerification() throws Exception {
    repository.write(PATH, "not the package".getBytes(StandardCharsets.UTF_8));
    assertThat(CliRunner.run(acquire(work.resolve("store"))).exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(ledger("verify").exitCode()).isZero();
    Path db = work.resolve(".capability").resolve("state.db");

    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      assertThat(s.executeUpdate("UPDATE acquisitions SET body = replace(replace(body, '\"accepted\":false', '\"accepted\":true'),"
          + " 'CHECKSUM_MISMATCH', 'ACQUIRED') WHERE seq = 1")).isEqualTo(1);
    }

    CliRunner.Outcome edited = ledger("verify");
    assertThat(edited.exitCode()).isEqualTo(ExitCodes.NOT_INTACT);
    assertThat(edited.out()).startsWith("CHAIN_BROKEN at 1: record 1 does not match its hash");
    assertThat(ledger("list").out()).contains("acquisition  ACQUIRED");
    assertThat(ledger("show", "1").exitCode()).as("show flags the record too").isEqualTo(ExitCodes.NOT_INTACT);

    // An attacker who also rewrites the record's hash in entries is caught by the signed checkpoint.
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT e.prev_hash, e.recorded_at, a.body FROM entries e JOIN acquisitions a ON a.seq = e.seq")) {
      assertThat(rs.next()).isTrue();
      String hash = ChainHash.hash(ChainHash.newDigest(), rs.getString(1), 1, "acquisition", rs.getString(2),
          rs.getString(3).getBytes(StandardCharsets.UTF_8));
      try (Statement u = c.createStatement()) {
        assertThat(u.executeUpdate("UPDATE entries SET hash = '" + hash + "' WHERE seq = 1")).isEqualTo(1);
      }
    }

    CliRunner.Outcome rechained = ledger("verify");
    assertThat(rechained.exitCode()).isEqualTo(ExitCodes.NOT_INTACT);
    assertThat(rechained.out()).startsWith("CHECKPOINT_MISMATCH at 1");
  }

  @Test
  void aLedgerThatCannotBeWrittenIsReportedAfterTheAcquisitionWithExitThree() throws IOException {
    Path notADirectory = Files.writeString(work.resolve("repo-file"), "not a repository");
    List<String> args = new java.util.ArrayList<>(List.of(acquire(work.resolve("store"), "--json")));
    args.set(args.indexOf("--repo") + 1, notADirectory.toString());

    CliRunner.Outcome outcome = CliRunner.run(args.toArray(String[]::new));

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(json(outcome.out()).path("decision").path("code").asText()).as("the acquisition is still reported").isEqualTo("ACQUIRED");
    assertThat(outcome.err()).contains("LEDGER_IO_ERROR").contains(notADirectory.toString());
  }

  @Test
  void aProvenanceNamingARepositoryWithCredentialsIsReportedAndRecordedWithoutThem() {
    byte[] statement = statement("https://ci:s3cret@github.com/example/hello");
    repository.write(PATH + ".intoto.json", statement);
    repository.write(PATH + ".intoto.json.asc", release.sign(statement));

    CliRunner.Outcome plain = CliRunner.run(acquire(work.resolve("store")));
    CliRunner.Outcome json = CliRunner.run(acquire(work.resolve("store"), "--json"));

    assertThat(plain.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(plain.out()).contains("https://redacted@github.com/example/hello");
    JsonNode view = json(json.out());
    assertThat(view.path("observations").path("provenance").path("repository").asText()).isEqualTo("https://redacted@github.com/example/hello");
    assertThat(view.path("decision").path("reason").asText()).contains("github.com");
    CliRunner.Outcome recorded = ledger("show", "1", "--json");
    assertThat(recorded.out()).contains("redacted@github.com");
    for (String output : List.of(plain.out(), plain.err(), json.out(), json.err(), recorded.out())) {
      assertThat(output).doesNotContain("s3cret");
    }
  }

  @Test
  void aRangeIsRefusedBeforeAnythingIsFetched() {
    CliRunner.Outcome refused = CliRunner.run("acquire", "com.example:hello:[1.0,2.0)", "--repository", uri(), "--allow-http-loopback",
        "--store", work.resolve("store").toString(), "--repo", work.toString());

    assertThat(refused.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(refused.err()).contains("COORDINATES_RANGE");
    assertThat(work.resolve("store")).doesNotExist();
    assertThat(work.resolve(".capability")).as("nothing was fetched, so nothing is recorded").doesNotExist();
  }

  @Test
  void plainHttpNeedsTheLoopbackFlag() {
    CliRunner.Outcome refused = CliRunner.run("acquire", "com.example:hello:1.0.0@zip", "--repository", uri(), "--store", work.resolve("store").toString(),
        "--repo", work.toString());

    assertThat(refused.exitCode()).isEqualTo(ExitCodes.CAPABILITY_REFUSED);
    assertThat(refused.err()).contains("SOURCE_INSECURE");
    assertThat(work.resolve(".capability")).doesNotExist();
  }

  @Test
  void acquiresAnNpmVersionSignedByAPinnedRegistryKey() throws Exception {
    java.security.KeyPairGenerator generator = java.security.KeyPairGenerator.getInstance("EC");
    generator.initialize(new java.security.spec.ECGenParameterSpec("secp256r1"));
    java.security.KeyPair registryKey = generator.generateKeyPair();
    byte[] tgz = "tarball bytes".getBytes(StandardCharsets.UTF_8);
    String integrity = "sha512-" + java.util.Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-512").digest(tgz));
    java.security.Signature signer = java.security.Signature.getInstance("SHA256withECDSA");
    signer.initSign(registryKey.getPrivate());
    signer.update(("hello-cap@1.0.0:" + integrity).getBytes(StandardCharsets.UTF_8));
    repository.write("hello-cap/-/hello-cap-1.0.0.tgz", tgz);
    repository.write("hello-cap/1.0.0", ("{\"name\":\"hello-cap\",\"version\":\"1.0.0\",\"dist\":{\"tarball\":\"" + uri() + "hello-cap/-/hello-cap-1.0.0.tgz\","
        + "\"integrity\":\"" + integrity + "\",\"signatures\":[{\"keyid\":\"SHA256:k\",\"sig\":\""
        + java.util.Base64.getEncoder().encodeToString(signer.sign()) + "\"}]}}").getBytes(StandardCharsets.UTF_8));
    Path keys = Files.writeString(work.resolve("npm-keys.json"), "{\"keys\":[{\"keyid\":\"SHA256:k\",\"keytype\":\"ecdsa-sha2-nistp256\","
        + "\"scheme\":\"ecdsa-sha2-nistp256\",\"key\":\"" + java.util.Base64.getEncoder().encodeToString(registryKey.getPublic().getEncoded()) + "\"}]}");

    CliRunner.Outcome acquired = CliRunner.run("acquire", "npm:hello-cap@1.0.0", "--repository", uri(), "--allow-http-loopback",
        "--npm-keys", keys.toString(), "--store", work.resolve("store").toString(), "--repo", work.toString(), "--json");

    assertThat(acquired.exitCode()).as(acquired.out() + acquired.err()).isZero();
    JsonNode view = json(acquired.out());
    assertThat(view.path("coordinates").asText()).isEqualTo("npm:hello-cap@1.0.0");
    assertThat(view.path("observations").path("signature").path("key").asText()).isEqualTo("SHA256:k");
    assertThat(Files.readAllBytes(Path.of(view.path("stored").asText()))).isEqualTo(tgz);
    JsonNode record = json(CliRunner.run("ledger", "show", "1", "--repo", work.toString(), "--json").out());
    assertThat(record.path("kind").asText()).isEqualTo("acquisition");
    assertThat(record.path("body")).isEqualTo(view);
  }

  private Path sigstoreTrust(SigstoreFixture sigstore) throws IOException {
    Path operator = Files.createDirectories(work.resolve("operator"));
    sigstore.writeTrustedRoot(operator);
    return Files.writeString(operator.resolve("sigstore.json"), "{\"trustedRoot\": \"trusted_root.json\", \"identities\": [{\"issuer\": \""
        + OIDC_ISSUER + "\", \"subject\": \"" + WORKFLOW + "\", \"coordinates\": [\"com.example:hello\"]}]}");
  }

  private String[] acquire(Path store, String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of(
        "acquire", "com.example:hello:1.0.0@zip",
        "--repository", uri(), "--allow-http-loopback",
        "--trust", "strict", "--keyring", keyring.toString(),
        "--expect-repository", SOURCE, "--store", store.toString(), "--repo", work.toString()));
    args.addAll(List.of(extra));
    return args.toArray(String[]::new);
  }

  private CliRunner.Outcome ledger(String subcommand, String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of("ledger", subcommand, "--repo", work.toString()));
    args.addAll(List.of(extra));
    return CliRunner.run(args.toArray(String[]::new));
  }

  private String uri() {
    return repository.uri().toString();
  }

  private static byte[] helloPackage() throws IOException {
    Path hello = Path.of("../examples/capabilities/hello");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (String name : List.of("capability.json", "lib/hello.jar")) {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(Files.readAllBytes(hello.resolve(name)));
        zip.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  private static JsonNode json(String text) {
    try {
      return new ObjectMapper().readTree(text);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + text, e);
    }
  }

  @AfterAll
  static void close() {
    BWRAP.close();
  }
}
