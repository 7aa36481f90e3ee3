package dev.capability.discovery.internal;

import dev.capability.capability.runtime.support.Printable;
import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.discovery.AddressClass;
import dev.capability.discovery.DiscoveryCodes;
import dev.capability.discovery.IndexRefusedException;
import dev.capability.discovery.NetworkAccess;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;

/**
 * Resolves a URL's host and refuses it unless every address it resolves to is allowed. The
 * caller connects to the returned address, never to the name again, so a second DNS answer
 * cannot swap in a private address.
 */
public final class AddressGuard {
  private final NetworkAccess access;
  private final HostResolver resolver;

  /** Name resolution, a seam so tests can map public-looking names to chosen addresses. */
  @FunctionalInterface
  public interface HostResolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  public AddressGuard(NetworkAccess access, HostResolver resolver) {
    this.access = access;
    this.resolver = resolver;
  }

  /** Refuses the scheme of {@code url} unless it is https, or http where allowed. */
  public void checkScheme(URI url) {
    if (url.getScheme().equals("https") || (access.allowHttp() && url.getScheme().equals("http"))) {
      return;
    }
    throw new IndexRefusedException(
        DiscoveryCodes.INDEX_SCHEME_REFUSED, UrlCredentials.redacted(url) + " is not https; plain http is not allowed");
  }

  /** The address to connect to for {@code url}'s host, after checking all of them. */
  public InetAddress resolve(URI url) {
    String host = url.getHost();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    InetAddress[] addresses;
    try {
      addresses = resolver.resolve(host);
    } catch (UnknownHostException e) {
      throw new IndexRefusedException(DiscoveryCodes.INDEX_UNREACHABLE, "host '" + Printable.escaped(host) + "' does not resolve", e);
    }
    if (addresses == null || addresses.length == 0) {
      throw new IndexRefusedException(DiscoveryCodes.INDEX_UNREACHABLE, "host '" + Printable.escaped(host) + "' has no address");
    }
    for (InetAddress address : List.of(addresses)) {
      check(host, address);
    }
    return addresses[0];
  }

  private void check(String host, InetAddress address) {
    AddressClass kind = AddressClass.of(address);
    if (!kind.allowedBy(access)) {
      throw new IndexRefusedException(
          DiscoveryCodes.INDEX_ADDRESS_REFUSED,
          "host '" + Printable.escaped(host) + "' resolves to " + address.getHostAddress() + ", a "
              + kind.name().toLowerCase(Locale.ROOT) + " address the operator did not allow");
    }
  }
}
