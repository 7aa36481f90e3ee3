package dev.capability.acquire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * An attacker who controls the repository, but not the release key, rewrites it at will: flips
 * bytes, swaps in another package, recomputes checksums and provenance, deletes, replaces and
 * swaps signatures. Under the strict policy nothing but the released bytes is ever stored, and
 * every refusal leaves the store empty.
 */
class TamperingProperties {
  private static final String PATH = "com/example/hello/1.0.0/hello-1.0.0.zip";
  private static final String REPOSITORY = "https://github.com/example/hello";
  private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";

  private static PgpFixture releaseKey;
  private static PgpFixture attackerKey;
  private static byte[] released;
  private static byte[] otherPackage;
  private static Path work;

  /** One thing the attacker does to the repository. */
  enum Tamper {
    FLIP_ARTIFACT_BYTE,
    TRUNCATE_ARTIFACT,
    SWAP_IN_OTHER_PACKAGE,
    RECOMPUTE_CHECKSUMS,
    DELETE_SHA256,
    DELETE_SHA512,
    DELETE_SIGNATURE,
    DELETE_PROVENANCE,
    DELETE_PROVENANCE_SIGNATURE,
    SIGN_ARTIFACT_WITH_ATTACKER_KEY,
    REWRITE_PROVENANCE_UNSIGNED,
    REWRITE_PROVENANCE_SIGNED_BY_ATTACKER,
    USE_PROVENANCE_SIGNATURE_AS_ARTIFACT_SIGNATURE,
    ADD_SIGSTORE_BUNDLE
  }

  @BeforeContainer
  static void makeKeysAndPackages() throws IOException {
    releaseKey = PgpFixture.generate("Hello Release <release@example.com>");
    attackerKey = PgpFixture.generate("Attacker <attacker@example.net>");
    released = PackageAcquirerTest.helloPackage("1.0.0");
    otherPackage = PackageAcquirerTest.helloPackage("1.0.0").clone();
    otherPackage[otherPackage.length / 3] ^= 0x20;
    work = Files.createTempDirectory("tampering");
  }

  @AfterContainer
  static void removeWork() throws IOException {
    delete(work);
  }

  @Property(tries = 150)
  void onlyTheReleasedBytesAreEverStoredUnderStrict(@ForAll("attacks") List<Tamper> attack, @ForAll("offsets") int offset) throws IOException {
    Path repository = Files.createTempDirectory(work, "repo");
    Path store = Files.createTempDirectory(work, "store");
    Path keyring = Files.writeString(repository.resolveSibling(repository.getFileName() + ".keys.json"),
        "{\"keys\":[{\"fingerprint\":\"" + releaseKey.fingerprint() + "\",\"publicKey\":" + json(releaseKey.armoredPublicKey())
            + ",\"coordinates\":[\"com.example:hello\"]},{\"fingerprint\":\"" + attackerKey.fingerprint() + "\",\"publicKey\":"
            + json(attackerKey.armoredPublicKey()) + ",\"coordinates\":[\"com.attacker:*\"]}]}");
    publishReleased(repository);
    for (Tamper tamper : attack) {
      apply(tamper, repository, offset);
    }

    Acquisition acquisition;
    try {
      acquisition = PackageAcquirer.builder(PackageSources.localRepository(repository), store)
          .keys(TrustedKeys.load(keyring))
          .policy(TrustPolicies.strict())
          .expectedRepository(REPOSITORY)
          .build()
          .acquire(Coordinates.parse("com.example:hello:1.0.0@zip"));
    } catch (AcquisitionRefusedException e) {
      assertThat(e.code()).isEqualTo(AcquisitionCodes.ARTIFACT_NOT_FOUND);
      acquisition = null;
    }

    String outcome = acquisition == null ? "thrown" : acquisition.decision().code();
    Statistics.label("outcome").collect(outcome.equals(AcquisitionCodes.ACQUIRED) ? "accepted" : "refused");
    Statistics.label("outcome").coverage(coverage -> {
      coverage.check("accepted").count((Integer count) -> count > 0);
      coverage.check("refused").count((Integer count) -> count > 0);
    });
    if (acquisition != null && acquisition.accepted()) {
      assertThat(Files.readAllBytes(acquisition.stored().orElseThrow())).as(attack.toString()).isEqualTo(released);
      assertThat(acquisition.observations().signature().isVerified()).isTrue();
    } else {
      assertThat(files(store)).as(attack + " left files").isEmpty();
    }
  }

  @Provide
  Arbitrary<List<Tamper>> attacks() {
    return Arbitraries.of(Tamper.class).list().ofMinSize(1).ofMaxSize(4);
  }

  @Provide
  Arbitrary<Integer> offsets() {
    return Arbitraries.integers().between(0, 1 << 20);
  }

  private static void publishReleased(Path repository) throws IOException {
    write(repository, PATH, released);
    recomputeChecksums(repository);
    write(repository, PATH + ".asc", releaseKey.sign(released));
    byte[] statement = PackageAcquirerTest.provenance(RepositoryFixture.hex("SHA-256", released), "git+" + REPOSITORY, COMMIT);
    write(repository, PATH + ".intoto.json", statement);
    write(repository, PATH + ".intoto.json.asc", releaseKey.sign(statement));
  }

  private static void apply(Tamper tamper, Path repository, int offset) throws IOException {
    Path artifact = repository.resolve(PATH);
    byte[] current = Files.exists(artifact) ? Files.readAllBytes(artifact) : released;
    switch (tamper) {
      case FLIP_ARTIFACT_BYTE -> {
        byte[] flipped = current.clone();
        if (flipped.length > 0) {
          flipped[offset % flipped.length] ^= (byte) (1 + offset % 255);
        }
        write(repository, PATH, flipped);
      }
      case TRUNCATE_ARTIFACT -> write(repository, PATH, java.util.Arrays.copyOf(current, current.length == 0 ? 0 : offset % current.length));
      case SWAP_IN_OTHER_PACKAGE -> write(repository, PATH, otherPackage);
      case RECOMPUTE_CHECKSUMS -> recomputeChecksums(repository);
      case DELETE_SHA256 -> Files.deleteIfExists(repository.resolve(PATH + ".sha256"));
      case DELETE_SHA512 -> Files.deleteIfExists(repository.resolve(PATH + ".sha512"));
      case DELETE_SIGNATURE -> Files.deleteIfExists(repository.resolve(PATH + ".asc"));
      case DELETE_PROVENANCE -> Files.deleteIfExists(repository.resolve(PATH + ".intoto.json"));
      case DELETE_PROVENANCE_SIGNATURE -> Files.deleteIfExists(repository.resolve(PATH + ".intoto.json.asc"));
      case SIGN_ARTIFACT_WITH_ATTACKER_KEY -> write(repository, PATH + ".asc", attackerKey.sign(current));
      case REWRITE_PROVENANCE_UNSIGNED -> {
        write(repository, PATH + ".intoto.json", PackageAcquirerTest.provenance(RepositoryFixture.hex("SHA-256", current), "git+" + REPOSITORY, COMMIT));
        Files.deleteIfExists(repository.resolve(PATH + ".intoto.json.asc"));
      }
      case REWRITE_PROVENANCE_SIGNED_BY_ATTACKER -> {
        byte[] statement = PackageAcquirerTest.provenance(RepositoryFixture.hex("SHA-256", current), "git+" + REPOSITORY, COMMIT);
        write(repository, PATH + ".intoto.json", statement);
        write(repository, PATH + ".intoto.json.asc", attackerKey.sign(statement));
      }
      case USE_PROVENANCE_SIGNATURE_AS_ARTIFACT_SIGNATURE -> {
        Path provenanceSignature = repository.resolve(PATH + ".intoto.json.asc");
        if (Files.exists(provenanceSignature)) {
          write(repository, PATH + ".asc", Files.readAllBytes(provenanceSignature));
        }
      }
      case ADD_SIGSTORE_BUNDLE -> write(repository, PATH + ".sigstore.json", "{\"verified\": true}".getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void recomputeChecksums(Path repository) throws IOException {
    Path artifact = repository.resolve(PATH);
    byte[] bytes = Files.exists(artifact) ? Files.readAllBytes(artifact) : released;
    write(repository, PATH + ".sha256", RepositoryFixture.hex("SHA-256", bytes).getBytes(StandardCharsets.US_ASCII));
    write(repository, PATH + ".sha512", RepositoryFixture.hex("SHA-512", bytes).getBytes(StandardCharsets.US_ASCII));
  }

  private static void write(Path repository, String path, byte[] bytes) throws IOException {
    Path file = repository.resolve(path);
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
  }

  private static List<Path> files(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        file.toFile().setWritable(true);
        Files.delete(file);
      }
    }
  }

  private static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\r", "\\r").replace("\n", "\\n") + "\"";
  }
}
