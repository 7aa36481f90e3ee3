package dev.capability.mcp;

import java.net.URI;

/** A running streamable HTTP endpoint; closing it stops the listener and ends every session. */
public interface HttpEndpoint extends AutoCloseable {
  /** The endpoint clients post to, for example {@code http://127.0.0.1:41234/mcp}. */
  URI uri();

  /** Blocks until the endpoint is closed. */
  void join() throws InterruptedException;

  @Override
  void close();
}
