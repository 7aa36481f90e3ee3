package dev.capability.kernel.api.network;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one run's egress proxy allows: exactly {@code allowed}, matched on the requested name and
 * port. The proxy resolves names itself and refuses loopback, private, link-local, unique-local,
 * multicast, unspecified and cloud metadata addresses whatever name led to them, on every
 * connection, except for the names in {@code privateAddressNames}: an explicit operator setting
 * for services on the operator's own network or loopback (a test server, an internal Git host).
 *
 * @param allowed the destinations, in the order granted; duplicates removed
 * @param privateAddressNames lower-case names (each also in {@code allowed}) that may resolve to a
 *     loopback or private address
 * @param limits the run's bounds
 */
public record EgressRules(List<EgressDestination> allowed, Set<String> privateAddressNames, EgressLimits limits) {
  public EgressRules {
    allowed = List.copyOf(new LinkedHashSet<>(Objects.requireNonNull(allowed, "allowed")));
    privateAddressNames = Collections.unmodifiableSet(new TreeSet<>(Objects.requireNonNull(privateAddressNames, "privateAddressNames")));
    Objects.requireNonNull(limits, "limits");
    for (String name : privateAddressNames) {
      if (allowed.stream().noneMatch(d -> d.host().equals(name))) {
        throw new IllegalArgumentException(
            "private address name '" + name + "' is not the host of an allowed destination");
      }
    }
  }

  /** Allows {@code allowed} with no private-address names and the default limits. */
  public static EgressRules allowing(List<EgressDestination> allowed) {
    return new EgressRules(allowed, Set.of(), EgressLimits.DEFAULT);
  }

  /** Whether {@code host:port}, as requested (case-insensitively), is granted. */
  public boolean allows(String host, int port) {
    String lower = host.toLowerCase(Locale.ROOT);
    return allowed.stream().anyMatch(d -> d.port() == port && d.host().equals(lower));
  }
}
