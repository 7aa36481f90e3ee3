package dev.capability.kernel.core.internal.audit;

import dev.capability.kernel.api.CapturedOutput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * Scans what a command produced for secrets with the {@link SecretRule} table: the files it
 * created or changed (see {@link RepositoryChanges#filesWithNewContent()}) and its captured
 * output. Reads are bounded per file and in total; whatever was not fully read is reported as a
 * {@link ScanGap}. Content that looks binary (a NUL byte in its first 8000 bytes, Git's test) is
 * still scanned, with every rule except the generic one, whose line-based guesses mean nothing
 * there.
 */
public final class SecretScanner {
  /** Default bytes scanned per file. */
  public static final int DEFAULT_MAX_BYTES_PER_FILE = 1024 * 1024;
  /** Default bytes scanned over all files of one scan. */
  public static final long DEFAULT_MAX_TOTAL_BYTES = 64L * 1024 * 1024;

  private static final int BINARY_PROBE_BYTES = 8000;

  private final int maxBytesPerFile;
  private final long maxTotalBytes;

  /** A scanner with the default limits. */
  public SecretScanner() {
    this(DEFAULT_MAX_BYTES_PER_FILE, DEFAULT_MAX_TOTAL_BYTES);
  }

  /**
   * A scanner with the given limits.
   *
   * @throws IllegalArgumentException when a limit is not positive
   */
  public SecretScanner(int maxBytesPerFile, long maxTotalBytes) {
    if (maxBytesPerFile <= 0 || maxTotalBytes <= 0) {
      throw new IllegalArgumentException("scan limits must be positive, got " + maxBytesPerFile + " and " + maxTotalBytes);
    }
    this.maxBytesPerFile = maxBytesPerFile;
    this.maxTotalBytes = maxTotalBytes;
  }

  /**
   * Scans the files of {@code changes} that have new content under {@code repository}, then
   * {@code stdout} and {@code stderr}.
   */
  public SecretScanReport scan(Path repository, RepositoryChanges changes, CapturedOutput stdout, CapturedOutput stderr) {
    Objects.requireNonNull(changes, "changes");
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    SecretScanReport files = scanFiles(repository, changes.filesWithNewContent());
    List<SecretFinding> findings = new ArrayList<>(files.findings());
    List<ScanGap> gaps = new ArrayList<>(files.gaps());
    output("stdout", stdout, findings, gaps);
    output("stderr", stderr, findings, gaps);
    return new SecretScanReport(findings, gaps);
  }

  /**
   * Scans the files at {@code paths} (repository-relative) under {@code repository}, within this
   * scanner's per-file and total limits; a path that is not a regular file is a gap.
   */
  public SecretScanReport scanFiles(Path repository, List<String> paths) {
    Objects.requireNonNull(paths, "paths");
    Path root = RepositoryFiles.root(repository);
    List<SecretFinding> findings = new ArrayList<>();
    List<ScanGap> gaps = new ArrayList<>();
    long budget = maxTotalBytes;
    for (String path : paths) {
      if (budget <= 0) {
        gaps.add(new ScanGap(path, ScanGap.Reason.BUDGET_EXHAUSTED));
        continue;
      }
      Optional<byte[]> content = read(root.resolve(path), path, (int) Math.min(maxBytesPerFile, budget), gaps);
      if (content.isPresent()) {
        budget -= content.get().length;
        findings.addAll(scan(path, content.get()));
      }
    }
    return new SecretScanReport(findings, gaps);
  }

  /** Scans only {@code stdout} and {@code stderr}: for commands run without a repository. */
  public SecretScanReport scanOutput(CapturedOutput stdout, CapturedOutput stderr) {
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    List<SecretFinding> findings = new ArrayList<>();
    List<ScanGap> gaps = new ArrayList<>();
    output("stdout", stdout, findings, gaps);
    output("stderr", stderr, findings, gaps);
    return new SecretScanReport(findings, gaps);
  }

  /**
   * Scans {@code content} in full, reporting findings against {@code source}. The caller bounds
   * the size.
   */
  public List<SecretFinding> scan(String source, byte[] content) {
    Objects.requireNonNull(source, "source");
    // ISO-8859-1 maps every byte to one char, so offsets are byte offsets and any encoding scans.
    String text = new String(content, StandardCharsets.ISO_8859_1);
    boolean binary = looksBinary(content);
    int[] lineStarts = lineStarts(text);
    List<SecretFinding> findings = new ArrayList<>();
    Set<Integer> linesWithSpecificFindings = new HashSet<>();
    // GENERIC_SECRET is declared last, so every specific rule has marked its lines before it runs.
    for (SecretRule rule : EnumSet.allOf(SecretRule.class)) {
      if (binary && !rule.appliesToBinary()) {
        continue;
      }
      Set<Integer> reported = new HashSet<>();
      Matcher match = rule.matcher(text);
      while (match.find()) {
        int line = lineOf(lineStarts, match.start());
        if (!rule.accepts(match)) {
          continue;
        }
        boolean generic = rule == SecretRule.GENERIC_SECRET;
        if (generic && linesWithSpecificFindings.contains(line)) {
          continue; // the specific rule already names this secret
        }
        if (reported.add(line)) {
          findings.add(new SecretFinding(rule.id(), source, line));
          if (!generic) {
            linesWithSpecificFindings.add(line);
          }
        }
      }
    }
    findings.sort((a, b) -> a.line() != b.line() ? Integer.compare(a.line(), b.line()) : a.rule().compareTo(b.rule()));
    return findings;
  }

  private void output(String source, CapturedOutput output, List<SecretFinding> findings, List<ScanGap> gaps) {
    findings.addAll(scan(source, output.bytes()));
    if (output.truncated()) {
      gaps.add(new ScanGap(source, ScanGap.Reason.OUTPUT_TRUNCATED));
    }
  }

  private static Optional<byte[]> read(Path file, String path, int limit, List<ScanGap> gaps) {
    try {
      Optional<PathState> state = RepositoryFiles.lstatIfPresent(file);
      if (state.isEmpty() || state.get().type() != EntryType.FILE) {
        gaps.add(new ScanGap(path, ScanGap.Reason.NOT_A_FILE));
        return Optional.empty();
      }
      try (InputStream in = RepositoryFiles.open(file)) {
        byte[] content = in.readNBytes(limit);
        if (in.read() >= 0) {
          gaps.add(new ScanGap(path, ScanGap.Reason.TRUNCATED));
        }
        return Optional.of(content);
      }
    } catch (NoSuchFileException e) {
      gaps.add(new ScanGap(path, ScanGap.Reason.NOT_A_FILE));
    } catch (IOException | AuditException e) {
      gaps.add(new ScanGap(path, ScanGap.Reason.UNREADABLE));
    }
    return Optional.empty();
  }

  private static boolean looksBinary(byte[] content) {
    int probe = Math.min(content.length, BINARY_PROBE_BYTES);
    for (int i = 0; i < probe; i++) {
      if (content[i] == 0) {
        return true;
      }
    }
    return false;
  }

  private static int[] lineStarts(String text) {
    int[] starts = new int[16];
    int count = 0;
    starts[count++] = 0;
    for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
      if (count == starts.length) {
        starts = Arrays.copyOf(starts, count * 2);
      }
      starts[count++] = i + 1;
    }
    return Arrays.copyOf(starts, count);
  }

  private static int lineOf(int[] lineStarts, int offset) {
    int found = Arrays.binarySearch(lineStarts, offset);
    return (found >= 0 ? found : -found - 2) + 1;
  }
}
