package dev.capability.kernel.core.internal.audit;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The secret patterns the scanner knows. Every quantifier is bounded, so a hostile file cannot
 * make matching super-linear. {@link #id()} is stable: findings and documentation use it.
 */
public enum SecretRule {
  /** PEM private keys of every kind (RSA, EC, DSA, PKCS#8, encrypted), OpenSSH and PGP keys. */
  PRIVATE_KEY("private-key", true, "-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----"),
  /** AWS access key ids (long-term {@code AKIA}, temporary {@code ASIA}, and the other kinds). */
  AWS_ACCESS_KEY_ID(
      "aws-access-key-id", true, "(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}(?![A-Z0-9])"),
  /** A 40-character AWS secret access key assigned to a name that says so. */
  AWS_SECRET_ACCESS_KEY(
      "aws-secret-access-key",
      true,
      "(?i)(?:aws[_.-]?secret[_.-]?(?:access[_.-]?)?key|secret[_.-]?access[_.-]?key)[\"']?\\s{0,5}(?:=|:|=>)\\s{0,5}[\"']?"
          + "[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"),
  /** GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens. */
  GITHUB_TOKEN(
      "github-token", true, "(?<![A-Za-z0-9_])(?:(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{36,244})(?![A-Za-z0-9_])"),
  /** GitLab personal, deploy, runner and pipeline trigger tokens. */
  GITLAB_TOKEN("gitlab-token", true, "(?<![A-Za-z0-9_-])(?:glpat|gldt|glrt|glptt)-[A-Za-z0-9_-]{20,250}"),
  /** Slack bot, user, app-level and configuration tokens. */
  SLACK_TOKEN("slack-token", true, "(?<![A-Za-z0-9])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,250}"),
  /** Slack incoming webhook and workflow URLs, which post without further credentials. */
  SLACK_WEBHOOK("slack-webhook", true, "https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,250}"),
  /** Google API keys. */
  GOOGLE_API_KEY("google-api-key", true, "(?<![0-9A-Za-z_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"),
  /** JSON Web Tokens: base64url header and payload (both JSON objects), optional signature. */
  JWT("jwt", true, "(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,4096}\\.eyJ[A-Za-z0-9_-]{8,8192}\\.[A-Za-z0-9_-]{0,4096}"),
  /**
   * A value assigned to a name containing password, secret, token, api key, access key or
   * private key, quoted anywhere or unquoted as a whole-line assignment ({@code .env}, YAML,
   * properties), that looks random: at least {@value #MIN_GENERIC_LENGTH} characters, Shannon
   * entropy at least {@value #MIN_GENERIC_ENTROPY} bits per character, and at least two of lower
   * case, upper case and digits. Not applied to binary content.
   */
  GENERIC_SECRET(
      "generic-secret",
      false,
      "(?i)(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)"
          + "[A-Za-z0-9_.-]{0,40}[\"']?\\s{0,5}(?::=|=>|:|=)\\s{0,5}"
          + "(?:\"(?<dq>[^\"'`\\s]{16,256})\"|'(?<sq>[^\"'`\\s]{16,256})')"
          + "|(?im)^[ \\t]{0,20}(?:export[ \\t]{1,5})?[A-Za-z0-9_.-]{0,40}"
          + "(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)"
          + "[A-Za-z0-9_.-]{0,40}[ \\t]{0,5}[:=][ \\t]{0,5}(?<bare>[^\"'`\\s]{16,256})[ \\t]{0,20}$");

  static final int MIN_GENERIC_LENGTH = 16;
  static final double MIN_GENERIC_ENTROPY = 3.5;

  private final String id;
  private final boolean appliesToBinary;
  private final Pattern pattern;

  SecretRule(String id, boolean appliesToBinary, String regex) {
    this.id = id;
    this.appliesToBinary = appliesToBinary;
    this.pattern = Pattern.compile(regex);
  }

  /** The stable rule id used in findings, for example {@code github-token}. */
  public String id() {
    return id;
  }

  /** Whether the rule is also applied to content that looks binary. */
  public boolean appliesToBinary() {
    return appliesToBinary;
  }

  Matcher matcher(CharSequence text) {
    return pattern.matcher(text);
  }

  /** Whether a match is a finding; only the generic rule looks at the value itself. */
  boolean accepts(Matcher match) {
    if (this != GENERIC_SECRET) {
      return true;
    }
    String value = match.group("dq");
    if (value == null) {
      value = match.group("sq");
    }
    if (value == null) {
      value = match.group("bare");
    }
    return looksRandom(value);
  }

  static boolean looksRandom(String value) {
    int classes = (value.chars().anyMatch(c -> c >= 'a' && c <= 'z') ? 1 : 0)
        + (value.chars().anyMatch(c -> c >= 'A' && c <= 'Z') ? 1 : 0)
        + (value.chars().anyMatch(c -> c >= '0' && c <= '9') ? 1 : 0);
    return value.length() >= MIN_GENERIC_LENGTH && classes >= 2 && shannonEntropy(value) >= MIN_GENERIC_ENTROPY;
  }

  /** Shannon entropy of the character distribution of {@code value}, in bits per character. */
  static double shannonEntropy(String value) {
    int[] counts = new int[256];
    for (int i = 0; i < value.length(); i++) {
      counts[value.charAt(i) & 0xff]++;
    }
    double entropy = 0;
    for (int count : counts) {
      if (count > 0) {
        double p = (double) count / value.length();
        entropy -= p * (Math.log(p) / Math.log(2));
      }
    }
    return entropy;
  }
}
