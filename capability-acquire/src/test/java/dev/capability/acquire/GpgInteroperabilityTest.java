package dev.capability.acquire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Signatures made by the real GnuPG (an independent OpenPGP implementation) verify, and tampering is caught. */
class GpgInteroperabilityTest {
  private static final String PATH = "com/example/hello/1.0.0/hello-1.0.0.zip";

  @TempDir Path work;
  private Path home;

  @BeforeEach
  void makeAGpgHome() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/gpg")) && Files.isExecutable(Path.of("/usr/bin/gpgconf")), "gpg is not installed");
    home = Files.createDirectory(work.resolve("g"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    gpg("--quick-gen-key", "Release <release@example.com>", "ed25519", "sign", "never");
  }

  @AfterEach
  void stopTheAgent() throws Exception {
    if (home != null) {
      run(List.of("/usr/bin/gpgconf", "--homedir", home.toString(), "--kill", "all"));
    }
  }

  @Test
  void aGpgSignatureVerifiesAndTamperingIsCaught() throws Exception {
    byte[] bytes = PackageAcquirerTest.helloPackage("1.0.0");
    Path repository = work.resolve("repo");
    Path artifact = publish(repository, bytes);
    gpg("--armor", "--detach-sign", "--output", repository.resolve(PATH + ".asc").toString(), artifact.toString());
    String fingerprint = fingerprints().get(0);
    PackageAcquirer acquirer = acquirerTrusting(repository, fingerprint);

    Acquisition good = acquirer.acquire(Coordinates.parse("com.example:hello:1.0.0@zip"));

    assertThat(good.accepted()).as(good.decision().reason()).isTrue();
    assertThat(good.observations().signature().isVerified()).isTrue();
    assertThat(good.observations().signingKey()).contains(fingerprint);

    byte[] tampered = bytes.clone();
    tampered[tampered.length - 3] ^= 1;
    Files.write(artifact, tampered);
    Files.writeString(repository.resolve(PATH + ".sha512"), RepositoryFixture.hex("SHA-512", tampered));

    Acquisition bad = acquirer.acquire(Coordinates.parse("com.example:hello:1.0.0@zip"));

    assertThat(bad.decision().code()).isEqualTo(AcquisitionCodes.SIGNATURE_INVALID);
  }

  @Test
  void aSignatureByAGpgSigningSubkeyVerifies() throws Exception {
    String primary = fingerprints().get(0);
    gpg("--quick-add-key", primary, "ed25519", "sign", "never");
    String subkey = fingerprints().get(1);
    Path repository = work.resolve("repo");
    Path artifact = publish(repository, PackageAcquirerTest.helloPackage("1.0.0"));
    gpg("--armor", "--detach-sign", "--local-user", subkey + "!", "--output", repository.resolve(PATH + ".asc").toString(), artifact.toString());

    Acquisition acquisition = acquirerTrusting(repository, primary).acquire(Coordinates.parse("com.example:hello:1.0.0@zip"));

    assertThat(acquisition.accepted()).as(acquisition.decision().reason()).isTrue();
    assertThat(acquisition.observations().signingKey()).contains(subkey);
  }

  /** Writes the artifact and its SHA-512 into a repository directory; returns the artifact. */
  private static Path publish(Path repository, byte[] bytes) throws Exception {
    Path artifact = repository.resolve(PATH);
    Files.createDirectories(artifact.getParent());
    Files.write(artifact, bytes);
    Files.writeString(repository.resolve(PATH + ".sha512"), RepositoryFixture.hex("SHA-512", bytes));
    return artifact;
  }

  /** An acquirer whose keyring trusts gpg's exported key ring under {@code fingerprint} for the coordinates. */
  private PackageAcquirer acquirerTrusting(Path repository, String fingerprint) throws Exception {
    Files.writeString(work.resolve("release.asc"), gpg("--armor", "--export", "release@example.com"));
    Path keyring = Files.writeString(work.resolve("keyring.json"),
        "{\"keys\":[{\"fingerprint\":\"" + fingerprint + "\",\"publicKeyFile\":\"release.asc\",\"coordinates\":[\"com.example:hello\"]}]}");
    return PackageAcquirer.builder(PackageSources.localRepository(repository), work.resolve("store"))
        .keys(TrustedKeys.load(keyring))
        .build();
  }

  /** The primary key's fingerprint, then each subkey's, as gpg lists them. */
  private List<String> fingerprints() throws Exception {
    return gpg("--with-colons", "--list-keys", "release@example.com").lines()
        .filter(line -> line.startsWith("fpr:"))
        .map(line -> line.split(":")[9])
        .toList();
  }

  private String gpg(String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(
        "/usr/bin/gpg", "--homedir", home.toString(), "--batch", "--pinentry-mode", "loopback", "--passphrase", ""));
    argv.addAll(List.of(args));
    return run(argv);
  }

  private String run(List<String> argv) throws IOException, InterruptedException {
    Path errors = Files.createTempFile(work, "gpg", ".err");
    Process process = new ProcessBuilder(argv).redirectError(errors.toFile()).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException(argv + " failed: " + Files.readString(errors));
    }
    return output;
  }
}
