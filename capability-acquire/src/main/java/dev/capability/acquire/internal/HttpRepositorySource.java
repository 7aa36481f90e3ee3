package dev.capability.acquire.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.PackageSource;
import dev.capability.capability.runtime.support.Printable;
import dev.capability.capability.runtime.support.UrlCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A Maven repository over HTTPS (or plain HTTP to a loopback host, when the operator allows it).
 * Redirects are refused rather than followed, so every byte comes from the origin the operator
 * named; proxies and authentication are out of scope.
 */
public final class HttpRepositorySource implements PackageSource {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(60);
  /** The default time budget for one response body, once its headers arrived. */
  public static final Duration DEFAULT_BODY_BUDGET = Duration.ofMinutes(5);

  private final URI root;
  private final HttpClient client;
  private final Duration bodyBudget;

  public HttpRepositorySource(URI root, boolean allowHttpLoopback, Duration bodyBudget) {
    if (bodyBudget.isNegative() || bodyBudget.isZero()) {
      throw new IllegalArgumentException("the time budget must be positive: " + bodyBudget);
    }
    this.bodyBudget = bodyBudget;
    this.root = checkRoot(root, allowHttpLoopback);
    this.client = client();
  }

  /** A client that never follows redirects. */
  static HttpClient client() {
    return HttpClient.newBuilder()
        .followRedirects(HttpClient.Redirect.NEVER)
        .connectTimeout(CONNECT_TIMEOUT)
        .build();
  }

  /**
   * GETs {@code uri}: the body under the time budget on 200, empty on 404 or 410, a refusal on a
   * redirect or any other status.
   */
  static Optional<InputStream> get(HttpClient client, URI uri, Duration bodyBudget) {
    HttpRequest request = HttpRequest.newBuilder(uri).GET().timeout(RESPONSE_TIMEOUT).build();
    String shown = UrlCredentials.redacted(uri.toString());
    HttpResponse<InputStream> response;
    try {
      response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw new AcquisitionRefusedException(AcquisitionCodes.SOURCE_UNAVAILABLE, "cannot fetch " + shown + ": " + UrlCredentials.redactedIn(e.toString()), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AcquisitionRefusedException(AcquisitionCodes.SOURCE_UNAVAILABLE, "interrupted while fetching " + shown, e);
    }
    int status = response.statusCode();
    if (status == 200) {
      return Optional.of(new DeadlineInputStream(response.body(), bodyBudget, shown));
    }
    close(response.body());
    if (status == 404 || status == 410) {
      return Optional.empty();
    }
    if (status >= 300 && status < 400) {
      throw new AcquisitionRefusedException(
          AcquisitionCodes.SOURCE_REDIRECT,
          shown + " answered " + status + " redirecting to "
              + response.headers().firstValue("Location").map(location -> Printable.escaped(UrlCredentials.redacted(location))).orElse("(nowhere)")
              + "; redirects are not followed");
    }
    throw new AcquisitionRefusedException(AcquisitionCodes.SOURCE_UNAVAILABLE, shown + " answered HTTP " + status);
  }

  @Override
  public String describe() {
    return root.toString();
  }

  @Override
  public String location(String path) {
    return root.resolve(RelativePaths.check(path)).toString();
  }

  @Override
  public Optional<InputStream> open(String path) {
    return get(client, root.resolve(RelativePaths.check(path)), bodyBudget);
  }

  private static void close(InputStream body) {
    try {
      body.close();
    } catch (IOException e) {
      // The response is discarded either way; a failed close changes nothing we report.
    }
  }

  /** A usable root: HTTPS (or HTTP to loopback when allowed), no user information, query or fragment, ending in '/'. */
  static URI checkRoot(URI root, boolean allowHttpLoopback) {
    if (!root.isAbsolute() || root.isOpaque() || root.getHost() == null) {
      throw invalid(root, "is not an absolute http(s) URL with a host");
    }
    if (root.getRawUserInfo() != null || root.getRawQuery() != null || root.getRawFragment() != null) {
      throw invalid(root, "must not carry user information, a query or a fragment");
    }
    String scheme = root.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("http")) {
      if (!allowHttpLoopback) {
        throw new AcquisitionRefusedException(
            AcquisitionCodes.SOURCE_INSECURE, UrlCredentials.redacted(root) + " is plain HTTP; repositories must use HTTPS");
      }
      if (!isLoopback(root.getHost())) {
        throw new AcquisitionRefusedException(
            AcquisitionCodes.SOURCE_INSECURE, UrlCredentials.redacted(root) + " is plain HTTP to a host that is not loopback; only loopback may use HTTP");
      }
    } else if (!scheme.equals("https")) {
      throw invalid(root, "has scheme '" + scheme + "'; only https is allowed");
    }
    String path = root.getRawPath() == null || root.getRawPath().isEmpty() ? "/" : root.getRawPath();
    return root.resolve(path.endsWith("/") ? path : path + "/");
  }

  private static boolean isLoopback(String host) {
    try {
      InetAddress[] addresses = InetAddress.getAllByName(host);
      for (InetAddress address : addresses) {
        if (!address.isLoopbackAddress()) {
          return false;
        }
      }
      return addresses.length > 0;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static AcquisitionRefusedException invalid(URI root, String why) {
    return new AcquisitionRefusedException(AcquisitionCodes.SOURCE_INVALID, "repository " + UrlCredentials.redacted(root) + " " + why);
  }
}
