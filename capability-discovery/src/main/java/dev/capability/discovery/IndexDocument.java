package dev.capability.discovery;

import dev.capability.discovery.internal.IndexParser;
import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * A parsed index document: its entries and the federation links it offers. A link is a
 * suggestion to read another index; it transfers no trust.
 *
 * @param entries the capabilities listed, in document order
 * @param links other indexes, resolved against the document's own URL and canonicalized
 */
public record IndexDocument(List<IndexEntry> entries, List<URI> links) {
  /** The format name every document carries in its {@code format} member. */
  public static final String FORMAT = "capability-index/1";

  public IndexDocument {
    entries = List.copyOf(entries);
    links = List.copyOf(links);
  }

  /**
   * Parses an index strictly (see {@code docs/discovery.md}); {@code source} is the URL the bytes
   * came from, used to resolve relative links and to name the document in messages.
   *
   * @throws IndexRefusedException {@link DiscoveryCodes#INDEX_INVALID} or {@link
   *     DiscoveryCodes#INDEX_TOO_LARGE}, naming the member at fault
   */
  public static IndexDocument parse(byte[] bytes, URI source) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(source, "source");
    return IndexParser.parse(bytes, source);
  }
}
