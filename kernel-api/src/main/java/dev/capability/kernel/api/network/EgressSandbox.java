package dev.capability.kernel.api.network;

import java.util.Map;

/**
 * Where a sandbox with filtered network finds its proxy, the same under every backend: the backend
 * relays {@link #PROXY_HOST}:{@link #PROXY_PORT} inside the sandbox's own network namespace to the
 * session's socket (Docker binds the socket at {@link #SOCKET}; bwrap hands the relay an open
 * descriptor of it, since its sandbox user may not be able to reach the socket's directory); the
 * kernel sets {@link #environment()}.
 */
public final class EgressSandbox {
  /** Where a backend that binds the proxy's Unix socket into the sandbox puts it (Docker). */
  public static final String SOCKET = "/run/capability-egress/proxy.sock";

  /** The loopback address the in-sandbox relay listens on. */
  public static final String PROXY_HOST = "127.0.0.1";

  /** The port the in-sandbox relay listens on. */
  public static final int PROXY_PORT = 3128;

  private static final String HTTP_PROXY = "http://" + PROXY_HOST + ":" + PROXY_PORT;
  private static final String SOCKS_PROXY = "socks5h://" + PROXY_HOST + ":" + PROXY_PORT;

  private EgressSandbox() {}

  /**
   * The variables that point common clients (curl, git, pip, npm, Go, Python) at the proxy, in
   * both spellings; {@code NO_PROXY} is empty so that nothing bypasses it.
   */
  public static Map<String, String> environment() {
    return Map.of(
        "HTTP_PROXY", HTTP_PROXY,
        "http_proxy", HTTP_PROXY,
        "HTTPS_PROXY", HTTP_PROXY,
        "https_proxy", HTTP_PROXY,
        "ALL_PROXY", SOCKS_PROXY,
        "all_proxy", SOCKS_PROXY,
        "NO_PROXY", "",
        "no_proxy", "");
  }
}
