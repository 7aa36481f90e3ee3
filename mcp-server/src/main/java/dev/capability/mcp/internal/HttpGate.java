package dev.capability.mcp.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.mcp.HttpSettings;
import dev.capability.mcp.McpCodes;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;

/**
 * What every HTTP request passes before the MCP transport sees it, in this order: the Host header
 * (DNS-rebinding defence), the Origin header when there is one, the bearer token when one is
 * configured, the body size, and the concurrency limit. A refusal is a JSON body
 * {@code {code, message}} with the matching HTTP status; nothing behind the gate runs.
 */
public final class HttpGate implements Filter {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  private final Set<String> allowedHosts;
  private final List<String> allowedOrigins;
  private final byte[] tokenDigest;
  private final long maxRequestBytes;
  private final Semaphore inFlight;

  public HttpGate(HttpSettings settings) {
    if (!settings.allowedHosts().isEmpty()) {
      this.allowedHosts = Set.copyOf(settings.allowedHosts());
    } else if (settings.address().isLoopbackAddress()) {
      this.allowedHosts = LOOPBACK_NAMES;
    } else {
      String literal = settings.address().getHostAddress().toLowerCase(Locale.ROOT);
      this.allowedHosts = Set.of(literal.contains(":") ? "[" + literal + "]" : literal);
    }
    this.allowedOrigins = settings.allowedOrigins();
    this.tokenDigest = settings.bearerToken().map(HttpGate::sha256).orElse(null);
    this.maxRequestBytes = settings.maxRequestBytes();
    this.inFlight = new Semaphore(settings.maxConcurrentRequests());
  }

  @Override
  public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain) throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) servletRequest;
    HttpServletResponse response = (HttpServletResponse) servletResponse;
    String host = request.getHeader("Host");
    if (host == null || !allowedHosts.contains(hostName(host))) {
      refuse(response, 421, McpCodes.HOST_REFUSED, "the Host header '" + host + "' is not one this server answers to");
      return;
    }
    String origin = request.getHeader("Origin");
    if (origin != null && !originAllowed(origin, request.getLocalPort())) {
      refuse(response, 403, McpCodes.ORIGIN_REFUSED, "requests from the origin '" + origin + "' are not allowed");
      return;
    }
    if (tokenDigest != null && !tokenPresented(request.getHeader("Authorization"))) {
      response.setHeader("WWW-Authenticate", "Bearer");
      refuse(response, 401, McpCodes.UNAUTHORIZED, "a valid bearer token is required");
      return;
    }
    if (request.getContentLengthLong() > maxRequestBytes) {
      refuse(response, 413, McpCodes.REQUEST_TOO_LARGE, "the request body is larger than " + maxRequestBytes + " bytes");
      return;
    }
    // Only POSTs carry tool calls; a client's long-lived GET stream must not take a permit for its lifetime.
    boolean counted = "POST".equals(request.getMethod());
    if (counted && !inFlight.tryAcquire()) {
      refuse(response, 429, McpCodes.TOO_MANY_REQUESTS, "too many requests in flight");
      return;
    }
    try {
      chain.doFilter(request, response);
    } finally {
      if (counted) {
        inFlight.release();
      }
    }
  }

  /** The host of a Host header value, lower case, without the port; an IPv6 literal keeps its brackets. */
  static String hostName(String header) {
    String value = header.trim().toLowerCase(Locale.ROOT);
    if (value.startsWith("[")) {
      int close = value.indexOf(']');
      return close < 0 ? value : value.substring(0, close + 1);
    }
    int colon = value.indexOf(':');
    return colon < 0 ? value : value.substring(0, colon);
  }

  /** Listed, or this very server: an allowed host on the port the request came in on. */
  private boolean originAllowed(String origin, int localPort) {
    if (allowedOrigins.contains(origin)) {
      return true;
    }
    try {
      URI uri = new URI(origin);
      String scheme = uri.getScheme();
      String host = uri.getHost();
      return ("http".equals(scheme) || "https".equals(scheme)) && host != null
          && allowedHosts.contains(host.toLowerCase(Locale.ROOT)) && uri.getPort() == localPort
          && (uri.getRawPath() == null || uri.getRawPath().isEmpty());
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private boolean tokenPresented(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    // Digests of equal length, compared in constant time: neither the token nor its length leaks through timing.
    return MessageDigest.isEqual(tokenDigest, sha256(authorization.substring(7).trim()));
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java platform", e);
    }
  }

  private static void refuse(HttpServletResponse response, int status, String code, String message) throws IOException {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("code", code);
    body.put("message", message);
    response.setStatus(status);
    response.setContentType("application/json");
    response.setCharacterEncoding("UTF-8");
    response.getOutputStream().write(JSON.writeValueAsBytes(body));
  }
}
