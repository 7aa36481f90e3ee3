package dev.capability.openapi.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.support.Printable;
import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.discovery.AddressClass;
import dev.capability.discovery.NetworkAccess;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.openapi.OpenApiCodes;
import dev.capability.openapi.OpenApiRefusedException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Chooses and validates the server an imported operation connects to. Variables are replaced by
 * their defaults only. Host names are not resolved: an address seen at import time says nothing
 * about the address at run time, when the grant of {@code network.connect} and the executor's
 * boundary are what confine the connection. Literal addresses and {@code localhost} names are
 * judged here.
 */
final class ServerUrls {
  private static final Pattern VARIABLE = Pattern.compile("\\{([^{}]{1,64})\\}");
  private static final Pattern STRICT_IPV4 =
      Pattern.compile("(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
  private static final Pattern NUMERIC_LABEL = Pattern.compile("[0-9]+|0x[0-9a-f]*");

  /** A validated server: its URL and the effect that reaches it. */
  record Server(URI url, Effect connect) {}

  private ServerUrls() {}

  static Server choose(JsonNode servers, Optional<String> chosen, NetworkAccess access) {
    if (servers == null || !servers.isArray() || servers.isEmpty()) {
      throw invalid("/servers", "is missing or empty; an import needs one absolute https server");
    }
    List<String> candidates = new ArrayList<>();
    for (int i = 0; i < servers.size(); i++) {
      candidates.add(substitute(servers.get(i), "/servers/" + i));
    }
    String url;
    if (chosen.isPresent()) {
      if (!candidates.contains(chosen.get())) {
        throw invalid("/servers", "does not list the chosen server '" + shown(chosen.get()) + "'; it lists " + shown(candidates));
      }
      url = chosen.get();
    } else if (candidates.size() == 1) {
      url = candidates.get(0);
    } else {
      throw invalid("/servers", "lists " + candidates.size() + " servers " + shown(candidates) + "; choose one");
    }
    return validate(url, access);
  }

  private static String substitute(JsonNode server, String where) {
    if (!server.isObject() || !server.path("url").isTextual()) {
      throw invalid(where, "must be an object with a string 'url'");
    }
    String url = server.get("url").asText();
    JsonNode variables = server.path("variables");
    Matcher matcher = VARIABLE.matcher(url);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      String name = matcher.group(1);
      JsonNode fallback = variables.path(name).path("default");
      if (!fallback.isTextual()) {
        throw invalid(where + "/variables", "has no string default for '{" + Printable.escaped(name) + "}'; variables are resolved from defaults only");
      }
      String value = fallback.asText();
      if (value.length() > 256 || value.indexOf('{') >= 0 || value.indexOf('}') >= 0) {
        throw invalid(where + "/variables/" + Printable.escaped(name), "has a default that is too long or contains braces");
      }
      matcher.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    matcher.appendTail(out);
    String resolved = out.toString();
    if (resolved.indexOf('{') >= 0 || resolved.indexOf('}') >= 0) {
      throw invalid(where + "/url", "has an unbalanced or malformed variable");
    }
    return resolved;
  }

  private static Server validate(String text, NetworkAccess access) {
    URI url;
    try {
      url = new URI(text);
    } catch (URISyntaxException e) {
      throw invalid("server '" + shown(text) + "'", "is not a URL: " + e.getReason());
    }
    String where = "server '" + shown(text) + "'";
    if (!url.isAbsolute() || url.isOpaque()) {
      throw invalid(where, "is not absolute; a relative server has no host to declare");
    }
    String scheme = url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https") && !(scheme.equals("http") && access.allowHttp())) {
      throw invalid(where, "must use https");
    }
    if (url.getRawUserInfo() != null) {
      throw invalid(where, "carries user information");
    }
    if (url.getHost() == null) {
      throw invalid(where, "has no host Java can parse");
    }
    if (url.getRawQuery() != null || url.getRawFragment() != null) {
      throw invalid(where, "has a query or fragment");
    }
    String host = url.getHost().toLowerCase(Locale.ROOT);
    int port = url.getPort() != -1 ? url.getPort() : scheme.equals("https") ? 443 : 80;
    AddressClass kind = classify(host);
    if (!kind.allowedBy(access)) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_SERVER_REFUSED,
          where + " is a " + kind.name().toLowerCase(Locale.ROOT) + " address the operator did not allow");
    }
    Effect connect;
    try {
      connect = Effect.of("network.connect", host + ":" + port);
    } catch (CapabilityException e) {
      throw invalid(where, "does not give a valid network.connect scope: " + e.getMessage());
    }
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "" : url.getRawPath().replaceAll("/+$", "");
    for (String segment : path.split("/", -1)) {
      String decoded = segment.toLowerCase(Locale.ROOT).replace("%2e", ".");
      if (decoded.equals(".") || decoded.equals("..")) {
        throw invalid(where, "has a dot segment in its path");
      }
    }
    int defaultPort = scheme.equals("https") ? 443 : 80;
    URI normalized = URI.create(scheme + "://" + host + (port == defaultPort ? "" : ":" + port) + path);
    return new Server(normalized, connect);
  }

  /** A server URL as a message quotes it: without credentials, then printable. */
  private static String shown(String url) {
    return Printable.escaped(UrlCredentials.redacted(url));
  }

  private static List<String> shown(List<String> urls) {
    return urls.stream().map(ServerUrls::shown).toList();
  }

  private static AddressClass classify(String host) {
    if (host.equals("localhost") || host.endsWith(".localhost")) {
      return AddressClass.LOOPBACK;
    }
    boolean literal = host.startsWith("[") || STRICT_IPV4.matcher(host).matches();
    String last = host.substring(host.lastIndexOf('.') + 1);
    if (!literal && NUMERIC_LABEL.matcher(last).matches()) {
      // 2130706433, 0177.0.0.1, 0x7f.1 and 127.1 reach 127.0.0.1 through many resolvers: refuse, never guess
      throw invalid("server host '" + Printable.escaped(host) + "'", "looks like a numeric address in a non-standard form");
    }
    if (!literal) {
      return AddressClass.PUBLIC;
    }
    try {
      return AddressClass.of(InetAddress.getByName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host));
    } catch (UnknownHostException e) {
      throw invalid("server host '" + Printable.escaped(host) + "'", "is not a valid address literal");
    }
  }

  private static OpenApiRefusedException invalid(String where, String why) {
    return new OpenApiRefusedException(OpenApiCodes.OPENAPI_SERVER_INVALID, where + " " + why);
  }
}
