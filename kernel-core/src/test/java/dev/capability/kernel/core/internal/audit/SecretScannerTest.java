package dev.capability.kernel.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.capability.kernel.api.CapturedOutput;
import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SecretScannerTest {
  private static final Random RANDOM = new Random();
  private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final String UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  private static final String BASE64 = ALNUM + "+/";

  @TempDir Path temp;

  private final SecretScanner scanner = new SecretScanner();

  /** Random characters, so that no real secret sits in this file and no two runs plant the same one. */
  static String random(String alphabet, int length) {
    StringBuilder s = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      s.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return s.toString();
  }

  private static String base64url(String json) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  /** Rule id, the line that plants the secret, and the secret part that must never be printed. */
  static Stream<Arguments> plantedSecrets() {
    String rsaBody = random(BASE64, 64);
    String awsId = "AK" + "IA" + random(UPPER_DIGITS, 16);
    String awsSecret = random(BASE64, 40);
    String ghp = "gh" + "p_" + random(ALNUM, 36);
    String pat = "github" + "_pat_" + random(ALNUM, 22) + "_" + random(ALNUM, 59);
    String glpat = "gl" + "pat-" + random(ALNUM, 20);
    String slack = "xo" + "xb-" + random("0123456789", 12) + "-" + random("0123456789", 13) + "-" + random(ALNUM, 24);
    String webhook = "https://hooks.slack.com/services/T" + random(UPPER_DIGITS, 8) + "/B" + random(UPPER_DIGITS, 8) + "/" + random(ALNUM, 24);
    String google = "AI" + "za" + random(ALNUM + "_-", 35);
    String jwt = base64url("{\"alg\":\"HS256\",\"typ\":\"JWT\"}") + "." + base64url("{\"sub\":\"" + random(ALNUM, 12) + "\"}") + "." + random(ALNUM, 43);
    String password = random(ALNUM, 24);
    String apiKey = random(ALNUM, 32);
    String token = random(ALNUM, 20) + "9aZ";
    return Stream.of(
        Arguments.of("private-key", "-----BEGIN RSA PRIVATE KEY-----\n" + rsaBody + "\n-----END RSA PRIVATE KEY-----", rsaBody),
        Arguments.of("private-key", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + rsaBody, rsaBody),
        Arguments.of("private-key", "-----BEGIN EC PRIVATE KEY-----\n" + rsaBody, rsaBody),
        Arguments.of("private-key", "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + rsaBody, rsaBody),
        Arguments.of("private-key", "-----BEGIN PRIVATE KEY-----\n" + rsaBody, rsaBody),
        Arguments.of("private-key", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n" + rsaBody, rsaBody),
        Arguments.of("aws-access-key-id", "aws_access_key_id = " + awsId, awsId),
        Arguments.of("aws-secret-access-key", "aws_secret_access_key = " + awsSecret, awsSecret),
        Arguments.of("aws-secret-access-key", "\"SecretAccessKey\": \"" + awsSecret + "\",", awsSecret),
        Arguments.of("github-token", "git clone https://" + ghp + "@github.com/o/r", ghp),
        Arguments.of("github-token", "GH_TOKEN=" + pat, pat),
        Arguments.of("gitlab-token", "PRIVATE-TOKEN: " + glpat, glpat),
        Arguments.of("slack-token", "slack.token(" + slack + ")", slack),
        Arguments.of("slack-webhook", "curl -X POST " + webhook, webhook.substring(webhook.lastIndexOf('/'))),
        Arguments.of("google-api-key", "key=" + google + "&q=1", google),
        Arguments.of("jwt", "Authorization: Bearer " + jwt, jwt),
        Arguments.of("generic-secret", "DB_PASSWORD=\"" + password + "\"", password),
        Arguments.of("generic-secret", "  api_key: '" + apiKey + "'", apiKey),
        Arguments.of("generic-secret", "export SECRET_TOKEN=" + token, token),
        Arguments.of("generic-secret", "{\"client_secret\": \"" + password + "\"}", password));
  }

  @ParameterizedTest
  @MethodSource("plantedSecrets")
  void findsThePlantedSecretWithoutEverRepeatingIt(String rule, String planted, String secret) {
    String content = "first line\r\nsecond line\n" + planted + "\nlast line\n";
    List<SecretFinding> findings = scanner.scan("config/app.env", content.getBytes(StandardCharsets.UTF_8));

    assertThat(findings).extracting(SecretFinding::rule, SecretFinding::source, SecretFinding::line)
        .containsExactly(tuple(rule, "config/app.env", 3));
    SecretScanReport report = new SecretScanReport(findings, List.of());
    for (String printed : List.of(findings.toString(), report.toString(), findings.get(0).toString())) {
      assertThat(printed).doesNotContain(secret).doesNotContain(secret.substring(secret.length() - 12));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "password = \"changeme\"",
      "password=\"aaaaaaaaaaaaaaaaaaaaaaaa\"",
      "token = getToken()",
      "secret: ${SECRET_FROM_VAULT}",
      "tokenizer = \"bert-base-uncased-whole-word\"",
      "key = AKIA1234",
      "ghp_tooShort",
      "-----BEGIN PUBLIC KEY-----",
      "-----BEGIN CERTIFICATE-----",
      "the password field must be at least sixteen characters long",
      "eyJhbGciOiJIUzI1NiJ9 alone is only a header"})
  void leavesOrdinaryTextAlone(String line) {
    assertThat(scanner.scan("README", ("intro\n" + line + "\n").getBytes(StandardCharsets.UTF_8))).isEmpty();
  }

  @Test
  void scansBinaryContentWithTheSpecificRulesOnly() {
    String ghp = "gh" + "p_" + random(ALNUM, 36);
    String generic = "password=\"" + random(ALNUM, 24) + "\"";
    byte[] content = ("\0\1\2binary\n" + generic + "\n" + ghp + "\n").getBytes(StandardCharsets.ISO_8859_1);
    assertThat(scanner.scan("blob.bin", content)).extracting(SecretFinding::rule, SecretFinding::line)
        .containsExactly(tuple("github-token", 3));
  }

  @Test
  void reportsOneFindingPerRuleAndLineAndPrefersTheSpecificRule() {
    String ghp1 = "gh" + "p_" + random(ALNUM, 36);
    String ghp2 = "gh" + "p_" + random(ALNUM, 36);
    String line = "token=\"" + ghp1 + "\" backup " + ghp2;
    assertThat(scanner.scan("f", line.getBytes(StandardCharsets.UTF_8))).extracting(SecretFinding::rule, SecretFinding::line)
        .containsExactly(tuple("github-token", 1));
  }

  @Test
  void pathologicalInputsFinishWithoutFindings() {
    StringBuilder hostile = new StringBuilder();
    hostile.append("a".repeat(256 * 1024)).append('\n');
    hostile.append("password=".repeat(20_000)).append('\n');
    hostile.append("-----BEGIN ".repeat(20_000)).append('\n');
    hostile.append("eyJ".repeat(20_000)).append('\n');
    assertThat(scanner.scan("hostile", hostile.toString().getBytes(StandardCharsets.UTF_8))).isEmpty();
  }

  @Test
  void scansWhatTheCommandWroteAndPrintedAndReportsWhatItCouldNotSee() throws IOException {
    Path repo = Git.init(temp.resolve("repo"));
    Path outside = Files.writeString(temp.resolve("outside.txt"), "gh" + "p_" + random(ALNUM, 36));
    write(repo.resolve("kept.txt"), "nothing here\n");
    write(repo.resolve("doomed.txt"), "gh" + "p_" + random(ALNUM, 36) + "\n");
    write(repo.resolve(".gitignore"), "*.log\n");
    RepositorySnapshot before = RepositorySnapshot.take(repo);

    String created = "AK" + "IA" + random(UPPER_DIGITS, 16);
    write(repo.resolve("src/created.py"), "import os\nKEY = '" + created + "'\n");
    write(repo.resolve("kept.txt"), "nothing here\nstill nothing\n-----BEGIN OPENSSH PRIVATE KEY-----\n");
    write(repo.resolve("debug.log"), "token: \"" + random(ALNUM, 30) + "1\"\n");
    write(repo.resolve("big.txt"), "x".repeat(2048) + "\n" + "gh" + "p_" + random(ALNUM, 36) + "\n");
    Files.delete(repo.resolve("doomed.txt"));
    Files.createSymbolicLink(repo.resolve("link"), outside);
    RepositoryChanges changes = before.diff(before.retake());

    String printed = "Bearer " + base64url("{\"a\":\"" + random(ALNUM, 10) + "\"}") + "." + base64url("{\"b\":\"" + random(ALNUM, 10) + "\"}") + ".sig";
    SecretScanReport report = new SecretScanner(1024, 1024 * 1024).scan(
        repo,
        changes,
        CapturedOutput.of(("ok\n" + printed + "\n").getBytes(StandardCharsets.UTF_8), false),
        CapturedOutput.of("partial".getBytes(StandardCharsets.UTF_8), true));

    assertThat(report.findings()).extracting(SecretFinding::rule, SecretFinding::source, SecretFinding::line)
        .containsExactly(
            tuple("generic-secret", "debug.log", 1),
            tuple("private-key", "kept.txt", 3),
            tuple("aws-access-key-id", "src/created.py", 2),
            tuple("jwt", "stdout", 2));
    assertThat(report.gaps()).containsExactly(
        new ScanGap("big.txt", ScanGap.Reason.TRUNCATED),
        new ScanGap("stderr", ScanGap.Reason.OUTPUT_TRUNCATED));
    assertThat(report.toString()).doesNotContain(created);
  }

  @Test
  void reportsFilesBeyondTheTotalBudgetAsGaps() throws IOException {
    Path repo = Git.init(temp.resolve("repo"));
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    write(repo.resolve("a.txt"), "a".repeat(100));
    write(repo.resolve("b.txt"), "b".repeat(100));
    write(repo.resolve("c.txt"), "c".repeat(100));
    SecretScanReport report = new SecretScanner(1000, 150)
        .scan(repo, before.diff(before.retake()), CapturedOutput.empty(), CapturedOutput.empty());
    assertThat(report.gaps()).containsExactly(
        new ScanGap("b.txt", ScanGap.Reason.TRUNCATED),
        new ScanGap("c.txt", ScanGap.Reason.BUDGET_EXHAUSTED));
  }

  @Test
  void aFileGoneBeforeTheScanIsAGap() throws IOException {
    Path repo = Git.init(temp.resolve("repo"));
    RepositorySnapshot before = RepositorySnapshot.take(repo);
    write(repo.resolve("brief.txt"), "here for a moment");
    RepositoryChanges changes = before.diff(before.retake());
    Files.delete(repo.resolve("brief.txt"));
    Files.createDirectories(repo.resolve("brief.txt"));
    SecretScanReport report = scanner.scan(repo, changes, CapturedOutput.empty(), CapturedOutput.empty());
    assertThat(report.gaps()).containsExactly(new ScanGap("brief.txt", ScanGap.Reason.NOT_A_FILE));
  }

  @Test
  void entropyIsMeasuredInBitsPerCharacter() {
    assertThat(SecretRule.shannonEntropy("aaaa")).isZero();
    assertThat(SecretRule.shannonEntropy("abab")).isEqualTo(1.0);
    assertThat(SecretRule.shannonEntropy("0123456789abcdef")).isEqualTo(4.0);
  }

  private static void write(Path file, String content) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, content, StandardCharsets.UTF_8);
  }
}
