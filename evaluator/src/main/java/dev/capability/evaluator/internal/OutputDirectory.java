package dev.capability.evaluator.internal;

import static dev.capability.evaluator.EvaluatorCodes.EVALUATION_OUTPUT_BUSY;
import static dev.capability.evaluator.EvaluatorCodes.EVALUATION_OUTPUT_FAILED;

import dev.capability.evaluator.EvaluationException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * The output directory of one run, held under an exclusive lock ({@value #LOCK}) for the whole
 * run, so two runs never share worktrees or logs. It must be a real directory (no symbolic link on
 * the way), owned by this process's user and not group- or world-writable: nobody else may plant
 * a link where a log or a report is written. It is created when missing.
 */
final class OutputDirectory implements AutoCloseable {
  static final String LOCK = ".evaluation.lock";
  static final String LOGS = "logs";
  static final String REPORT_JSON = "report.json";
  static final String REPORT_HTML = "report.html";

  private static final int GROUP_OR_OTHER_WRITE = 0022;

  private final Path root;
  private final FileChannel channel;
  private final FileLock lock;

  private OutputDirectory(Path root, FileChannel channel, FileLock lock) {
    this.root = root;
    this.channel = channel;
    this.lock = lock;
  }

  static OutputDirectory open(Path root) {
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new EvaluationException(EVALUATION_OUTPUT_FAILED, "cannot create the output directory " + root + ": " + e, e);
    }
    requireSafe(root);
    FileChannel channel;
    try {
      channel = FileChannel.open(root.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new EvaluationException(EVALUATION_OUTPUT_FAILED, "cannot open " + root.resolve(LOCK) + ": " + e, e);
    }
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (IOException | OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      close(channel);
      throw new EvaluationException(EVALUATION_OUTPUT_BUSY, "another evaluation is running in the output directory " + root);
    }
    return new OutputDirectory(root, channel, lock);
  }

  private static void requireSafe(Path root) {
    Map<String, Object> attributes;
    Path real;
    int uid;
    try {
      real = root.toRealPath();
      attributes = Files.readAttributes(root, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
      uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException e) {
      throw new EvaluationException(EVALUATION_OUTPUT_FAILED, "cannot inspect the output directory " + root + ": " + e, e);
    }
    if (!real.equals(root) || !Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
      throw new EvaluationException(EVALUATION_OUTPUT_FAILED, "the output directory " + root
          + " must be a directory at its real path, without symbolic links; its real path is " + real);
    }
    int owner = (Integer) attributes.get("uid");
    int mode = (Integer) attributes.get("mode");
    if (owner != uid || (mode & GROUP_OR_OTHER_WRITE) != 0) {
      throw new EvaluationException(EVALUATION_OUTPUT_FAILED, "the output directory " + root + " is owned by uid " + owner
          + " with mode " + Integer.toOctalString(mode & 07777) + "; it must be this process's (uid " + uid
          + ") and not group- or world-writable");
    }
  }

  Path root() {
    return root;
  }

  Path reportJson() {
    return root.resolve(REPORT_JSON);
  }

  Path reportHtml() {
    return root.resolve(REPORT_HTML);
  }

  /** Removes the reports and logs of an earlier run, and makes the logs' directory again, empty. */
  void reset() {
    Path logs = root.resolve(LOGS);
    try {
      Files.deleteIfExists(reportJson());
      Files.deleteIfExists(reportHtml());
      Trees.delete(logs);
      Files.createDirectory(logs);
    } catch (IOException e) {
      throw new EvaluationException(EVALUATION_OUTPUT_FAILED, "cannot make an empty " + logs + ": " + e, e);
    }
  }

  /** Writes {@code bytes} to the new file {@code relative} (under the output directory), replacing an earlier run's. */
  void write(String relative, byte[] bytes) {
    Path file = root.resolve(relative);
    try {
      Files.deleteIfExists(file);
      Files.write(file, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new EvaluationException(EVALUATION_OUTPUT_FAILED, "cannot write " + file + ": " + e, e);
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // Closing the channel below releases the lock too.
    }
    close(channel);
  }

  private static void close(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing was written through it; the lock goes with the descriptor.
    }
  }
}
