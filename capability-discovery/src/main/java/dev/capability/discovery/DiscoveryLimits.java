package dev.capability.discovery;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds of one federation traversal.
 *
 * @param maxDepth how many links away from a seed index an index may be (seeds are depth 0)
 * @param maxIndexes how many documents are read at most
 * @param maxDocumentBytes the largest body read from one index
 * @param maxTotalBytes the most body bytes read in all
 * @param timeBudget the wall-clock time the whole traversal may take
 */
public record DiscoveryLimits(
    int maxDepth, int maxIndexes, long maxDocumentBytes, long maxTotalBytes, Duration timeBudget) {

  public DiscoveryLimits {
    Objects.requireNonNull(timeBudget, "timeBudget");
    if (maxDepth < 0) {
      throw new IllegalArgumentException("maxDepth must be at least 0, was " + maxDepth);
    }
    if (maxIndexes < 1) {
      throw new IllegalArgumentException("maxIndexes must be at least 1, was " + maxIndexes);
    }
    if (maxDocumentBytes < 1 || maxTotalBytes < 1) {
      throw new IllegalArgumentException("byte limits must be positive");
    }
    if (timeBudget.isNegative() || timeBudget.isZero()) {
      throw new IllegalArgumentException("timeBudget must be positive, was " + timeBudget);
    }
  }

  /** Depth 3, 32 indexes, 1 MiB per document, 8 MiB in all, 30 seconds. */
  public static DiscoveryLimits defaults() {
    return new DiscoveryLimits(3, 32, 1L << 20, 8L << 20, Duration.ofSeconds(30));
  }

  public DiscoveryLimits withMaxDepth(int value) {
    return new DiscoveryLimits(value, maxIndexes, maxDocumentBytes, maxTotalBytes, timeBudget);
  }

  public DiscoveryLimits withMaxIndexes(int value) {
    return new DiscoveryLimits(maxDepth, value, maxDocumentBytes, maxTotalBytes, timeBudget);
  }

  public DiscoveryLimits withMaxDocumentBytes(long value) {
    return new DiscoveryLimits(maxDepth, maxIndexes, value, maxTotalBytes, timeBudget);
  }

  public DiscoveryLimits withMaxTotalBytes(long value) {
    return new DiscoveryLimits(maxDepth, maxIndexes, maxDocumentBytes, value, timeBudget);
  }

  public DiscoveryLimits withTimeBudget(Duration value) {
    return new DiscoveryLimits(maxDepth, maxIndexes, maxDocumentBytes, maxTotalBytes, value);
  }
}
