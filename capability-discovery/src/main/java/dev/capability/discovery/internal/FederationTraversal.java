package dev.capability.discovery.internal;

import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.discovery.DiscoveryCodes;
import dev.capability.discovery.DiscoveryLimits;
import dev.capability.discovery.DiscoveryResult;
import dev.capability.discovery.FoundEntry;
import dev.capability.discovery.IndexDocument;
import dev.capability.discovery.IndexEntry;
import dev.capability.discovery.IndexProblem;
import dev.capability.discovery.IndexRefusedException;
import dev.capability.discovery.NetworkAccess;
import java.net.InetAddress;
import java.net.URI;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Breadth-first traversal of index documents. Per-link problems (a cycle, a link past the depth
 * limit, a refused or unreadable index) are recorded and skipped; reaching a global limit (index
 * count, total bytes, time) ends the traversal with that limit's code.
 */
public final class FederationTraversal {
  private static final Logger LOG = LoggerFactory.getLogger(FederationTraversal.class);

  private final DiscoveryLimits limits;
  private final AddressGuard guard;

  private final SSLContext tls;

  public FederationTraversal(DiscoveryLimits limits, NetworkAccess access) {
    this(limits, new AddressGuard(access, InetAddress::getAllByName), defaultTls());
  }

  /** With a chosen resolver and TLS trust: the seams tests use for HTTPS and DNS. */
  FederationTraversal(DiscoveryLimits limits, AddressGuard guard, SSLContext tls) {
    this.limits = limits;
    this.guard = guard;
    this.tls = tls;
  }

  private static SSLContext defaultTls() {
    try {
      return SSLContext.getDefault();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no TLS", e);
    }
  }

  private record Pending(URI url, List<URI> path) {}

  public DiscoveryResult run(List<URI> seeds) {
    long deadline = System.nanoTime() + limits.timeBudget().toNanos();
    List<FoundEntry> entries = new ArrayList<>();
    List<URI> visited = new ArrayList<>();
    List<IndexProblem> problems = new ArrayList<>();
    Set<URI> seen = new HashSet<>();
    Deque<Pending> queue = new ArrayDeque<>();
    for (URI seed : seeds) {
      try {
        URI canonical = CanonicalUrl.of(seed);
        if (seen.add(canonical)) {
          queue.add(new Pending(canonical, List.of(canonical)));
        }
      } catch (IndexRefusedException e) {
        problems.add(new IndexProblem(UrlCredentials.redacted(seed), e.code(), e.getMessage()));
      }
    }
    int read = 0;
    String stop = DiscoveryCodes.INDEX_COMPLETE;
    BoundedHttpGet http = new BoundedHttpGet(deadline, tls);
    while (!queue.isEmpty()) {
      if (System.nanoTime() - deadline >= 0) {
        stop = DiscoveryCodes.INDEX_TIME_EXCEEDED;
        break;
      }
      if (read >= limits.maxIndexes()) {
        stop = DiscoveryCodes.INDEX_COUNT_EXCEEDED;
        break;
      }
      long remaining = limits.maxTotalBytes() - http.bodyBytesRead();
      if (remaining <= 0) {
        stop = DiscoveryCodes.INDEX_BYTES_EXCEEDED;
        break;
      }
      Pending next = queue.poll();
      read++;
      byte[] body;
      try {
        guard.checkScheme(next.url());
        InetAddress address = resolveWithin(next.url(), deadline);
        boolean documentBound = limits.maxDocumentBytes() <= remaining;
        body = http.get(next.url(), address, Math.min(limits.maxDocumentBytes(), remaining),
            documentBound ? DiscoveryCodes.INDEX_TOO_LARGE : DiscoveryCodes.INDEX_BYTES_EXCEEDED);
      } catch (FetchLimitException e) {
        problems.add(new IndexProblem(UrlCredentials.redacted(next.url()), e.code(), e.getMessage()));
        if (e.code().equals(DiscoveryCodes.INDEX_TIME_EXCEEDED) || e.code().equals(DiscoveryCodes.INDEX_BYTES_EXCEEDED)) {
          stop = e.code();
          break;
        }
        continue;
      } catch (IndexRefusedException e) {
        problems.add(new IndexProblem(UrlCredentials.redacted(next.url()), e.code(), e.getMessage()));
        continue;
      }
      IndexDocument document;
      try {
        document = IndexDocument.parse(body, next.url());
      } catch (IndexRefusedException e) {
        problems.add(new IndexProblem(UrlCredentials.redacted(next.url()), e.code(), e.getMessage()));
        continue;
      }
      visited.add(next.url());
      LOG.debug("read index {} ({} entries, {} links)", UrlCredentials.redacted(next.url()), document.entries().size(), document.links().size());
      for (IndexEntry entry : document.entries()) {
        entries.add(new FoundEntry(entry, next.url(), next.path()));
      }
      for (URI link : document.links()) {
        if (next.path().contains(link)) {
          problems.add(new IndexProblem(link, DiscoveryCodes.INDEX_CYCLE,
              next.url() + " links back to " + link + ", which is on its own federation path " + next.path()));
          continue;
        }
        if (seen.contains(link)) {
          continue;
        }
        if (next.path().size() > limits.maxDepth()) {
          problems.add(new IndexProblem(link, DiscoveryCodes.INDEX_DEPTH_EXCEEDED,
              link + " is " + next.path().size() + " links from a seed; the limit is " + limits.maxDepth()));
          continue;
        }
        seen.add(link);
        List<URI> path = new ArrayList<>(next.path());
        path.add(link);
        queue.add(new Pending(link, path));
      }
    }
    return new DiscoveryResult(entries, visited, problems, stop);
  }

  /** The JDK resolver cannot be timed out; a daemon thread lets the traversal keep its budget. */
  private InetAddress resolveWithin(URI url, long deadline) {
    FutureTask<InetAddress> task = new FutureTask<>(() -> guard.resolve(url));
    Thread thread = new Thread(task, "index-resolver");
    thread.setDaemon(true);
    thread.start();
    try {
      return task.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      thread.interrupt();
      throw new FetchLimitException(DiscoveryCodes.INDEX_TIME_EXCEEDED, url.getHost() + " was still being resolved when the time budget ran out");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FetchLimitException(DiscoveryCodes.INDEX_TIME_EXCEEDED, "interrupted while resolving " + url.getHost());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IndexRefusedException(DiscoveryCodes.INDEX_UNREACHABLE, url.getHost() + " could not be resolved: " + e.getCause(), e);
    }
  }
}
