package dev.capability.mcp;

import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * How the streamable HTTP transport listens and whom it answers. Checked when made: a bind that is
 * not loopback needs a bearer token, a wildcard bind needs an explicit Host allowlist, and every
 * limit must be positive; a bad setting stops the server before it listens.
 *
 * @param bindAddress the address to bind ({@code 127.0.0.1} by default)
 * @param port the port, 0 for any free one
 * @param allowedHosts the host names the Host header may carry (without port); empty means the
 *     loopback names for a loopback bind, the bind address itself otherwise
 * @param allowedOrigins the exact origins ({@code scheme://host:port}) a browser may call from, beyond
 *     those whose host is an allowed host
 * @param bearerToken the token every request must present as {@code Authorization: Bearer}, if any
 * @param maxRequestBytes the largest request body accepted
 * @param maxConcurrentRequests how many POSTs may be in flight at once
 * @param requestTimeout the longest one request (and a command it runs) may take
 */
public record HttpSettings(
    String bindAddress,
    int port,
    List<String> allowedHosts,
    List<String> allowedOrigins,
    Optional<String> bearerToken,
    int maxRequestBytes,
    int maxConcurrentRequests,
    Duration requestTimeout) {
  /** Loopback, any free port, no token, 1 MiB bodies, 8 requests in flight, 10 minutes per request. */
  public static HttpSettings loopback(int port) {
    return new HttpSettings("127.0.0.1", port, List.of(), List.of(), Optional.empty(), 1 << 20, 8, Duration.ofMinutes(10));
  }

  /** @throws CapabilityException {@link McpCodes#CONFIG_INVALID} naming the setting that is wrong */
  public HttpSettings {
    allowedHosts = allowedHosts.stream().map(host -> host.toLowerCase(Locale.ROOT)).toList();
    allowedOrigins = List.copyOf(allowedOrigins);
    InetAddress address = address(bindAddress);
    if (port < 0 || port > 65_535) {
      throw invalid("port " + port + " is not a port");
    }
    if (address.isAnyLocalAddress() && allowedHosts.isEmpty()) {
      throw invalid("binding the wildcard address " + bindAddress + " needs an explicit Host allowlist (--allowed-host)");
    }
    if (!address.isLoopbackAddress() && bearerToken.isEmpty()) {
      throw invalid("binding " + bindAddress + ", which is not loopback, needs a bearer token (CAPABILITY_MCP_TOKEN or --token-file)");
    }
    if (bearerToken.isPresent() && bearerToken.get().length() < 32) {
      throw invalid("the bearer token must be at least 32 characters");
    }
    if (maxRequestBytes <= 0 || maxConcurrentRequests <= 0 || requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw invalid("the request size, concurrency and timeout limits must be positive");
    }
    for (String host : allowedHosts) {
      if (host.isBlank() || host.contains("/") || host.contains("*")) {
        throw invalid("allowed host '" + host + "' must be a host name or address without wildcards or path");
      }
    }
  }

  /** This, with a token. */
  public HttpSettings withToken(String token) {
    return new HttpSettings(bindAddress, port, allowedHosts, allowedOrigins, Optional.of(token), maxRequestBytes, maxConcurrentRequests, requestTimeout);
  }

  /**
   * The token in {@code file}: a regular file (not a symlink) owned by this user that neither group
   * nor others may read or write; surrounding white space is dropped.
   *
   * @throws CapabilityException {@link McpCodes#CONFIG_INVALID} when the file is not that
   */
  public static String readTokenFile(Path file) {
    try {
      PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!attributes.isRegularFile()) {
        throw invalid("token file '" + file + "' is not a regular file");
      }
      Set<PosixFilePermission> open = EnumSet.copyOf(attributes.permissions());
      open.retainAll(EnumSet.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE));
      if (!open.isEmpty() || attributes.permissions().isEmpty()) {
        throw invalid("token file '" + file + "' must be readable by its owner only (chmod 600), has " + attributes.permissions());
      }
      if (!attributes.owner().getName().equals(System.getProperty("user.name"))) {
        throw invalid("token file '" + file + "' is owned by " + attributes.owner().getName() + ", not by the user running the server");
      }
      return Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw invalid("token file '" + file + "' cannot be read: " + e.getMessage());
    }
  }

  /** The bind address, resolved. */
  public InetAddress address() {
    return address(bindAddress);
  }

  private static InetAddress address(String bindAddress) {
    try {
      return InetAddress.getByName(bindAddress);
    } catch (UnknownHostException e) {
      throw invalid("bind address '" + bindAddress + "' is not an address");
    }
  }

  private static CapabilityException invalid(String message) {
    return new CapabilityException(McpCodes.CONFIG_INVALID, message);
  }
}
