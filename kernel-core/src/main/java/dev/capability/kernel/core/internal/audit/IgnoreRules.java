package dev.capability.kernel.core.internal.audit;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jgit.ignore.IgnoreNode;

/**
 * Git's ignore rules for one working tree: every {@code .gitignore} file (a deeper file overrides a
 * shallower one, a later line an earlier one) and then {@code info/exclude}, with JGit's pattern
 * matching. As in Git, nothing below an ignored directory can be re-included, and paths inside a
 * {@code .git} directory are never ignored. {@code core.excludesFile} is deliberately not read: it
 * is the host user's configuration, not the repository's, and the same repository must audit the
 * same way on every host.
 *
 * <p>Rules for a directory must be added before paths below it are asked about, because directory
 * verdicts are remembered. Thread-safe.
 */
final class IgnoreRules {
  /** Git skips ignore files larger than this, and so do we. */
  static final long MAX_IGNORE_FILE_BYTES = 100L * 1024 * 1024;

  private final Map<String, IgnoreNode> byDirectory = new HashMap<>();
  private final Map<String, Boolean> directoryVerdicts = new HashMap<>();
  private IgnoreNode excludes = new IgnoreNode();

  /** Adds the rules of the {@code .gitignore} file in {@code directory} ({@code ""}: the root). */
  synchronized void addGitignore(String directory, byte[] content) {
    byDirectory.put(directory, parse(content));
  }

  /** Sets the rules of {@code info/exclude}, which rank below every {@code .gitignore}. */
  synchronized void setExcludes(byte[] content) {
    excludes = parse(content);
  }

  /** Whether Git would treat {@code path} (repository-relative, POSIX) as ignored. */
  synchronized boolean isIgnored(String path, boolean directory) {
    if (insideGitDirectory(path)) {
      return false;
    }
    String parent = parentOf(path);
    if (!parent.isEmpty() && isDirectoryIgnored(parent)) {
      return true;
    }
    return matches(path, directory);
  }

  /** Whether {@code directory} or one of its ancestors is ignored. */
  synchronized boolean isDirectoryIgnored(String directory) {
    Boolean known = directoryVerdicts.get(directory);
    if (known != null) {
      return known;
    }
    String parent = parentOf(directory);
    boolean ignored = !insideGitDirectory(directory)
        && ((!parent.isEmpty() && isDirectoryIgnored(parent)) || matches(directory, true));
    directoryVerdicts.put(directory, ignored);
    return ignored;
  }

  private boolean matches(String path, boolean directory) {
    String dir = parentOf(path);
    while (true) {
      IgnoreNode node = byDirectory.get(dir);
      if (node != null) {
        // JGit matches a nested ignore file's rules against "/" + the path below its directory.
        String relative = dir.isEmpty() ? path : path.substring(dir.length());
        Boolean verdict = node.checkIgnored(relative, directory);
        if (verdict != null) {
          return verdict;
        }
      }
      if (dir.isEmpty()) {
        break;
      }
      dir = parentOf(dir);
    }
    Boolean verdict = excludes.checkIgnored(path, directory);
    return verdict != null && verdict;
  }

  static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  private static boolean insideGitDirectory(String path) {
    return path.equals(".git") || path.startsWith(".git/") || path.contains("/.git/") || path.endsWith("/.git");
  }

  private static IgnoreNode parse(byte[] content) {
    IgnoreNode node = new IgnoreNode();
    try {
      node.parse(new ByteArrayInputStream(content));
    } catch (IOException e) {
      throw new UncheckedIOException("reading ignore rules from memory failed", e);
    }
    return node;
  }
}
