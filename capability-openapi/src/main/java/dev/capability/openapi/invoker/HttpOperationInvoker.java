package dev.capability.openapi.invoker;

import dev.capability.capability.api.Capability;
import dev.capability.capability.api.CapabilityContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * The one generic capability every imported OpenAPI operation runs: it performs exactly the HTTP
 * request its binding describes and returns {@code {"status": <int>, "body": <string>}}.
 *
 * <p>The binding is the resource {@value #BINDING} in the same module jar (a
 * {@link java.util.Properties} text written by the importer): {@code method}, {@code scheme},
 * {@code host}, {@code port}, {@code base} (the server's path), {@code path} (the template), the
 * parameter names allowed per location ({@code path.0}, {@code query.0}, {@code header.0},
 * {@code cookie.0}, ... numbered from 0) and {@code body} (the request media type, absent when
 * the operation takes no body).
 *
 * <p>The input is {@code {"path", "query", "header", "cookie", "body"}}; parameter values are
 * strings, numbers or booleans. A JSON body is sent as the raw JSON text of {@code body}; any
 * other media type takes {@code body} as a string.
 *
 * <p>This class is copied, byte for byte, into every generated module jar, and runs in the child
 * JVM where no JSON library is loaded: it uses {@code java.base} and {@code java.net.http} only,
 * and is one class file (no nested, anonymous or lambda classes). It asks only for the binding's
 * scheme, host and port and follows no redirects. That check is this code's own discipline, not a
 * boundary. The boundary is the child-JVM executor's: a run granted {@code network.connect} has no
 * network but the host's egress proxy, which relays only the granted {@code host:port}, and the
 * child JVM's proxy system properties point the JDK's default proxy selector, which this client
 * uses, at it.
 */
public final class HttpOperationInvoker implements Capability {
  /** The binding's resource name in the module jar. */
  public static final String BINDING = "capability-http-operation.properties";
  /** The binding format this class reads. */
  public static final String FORMAT = "capability-http-operation/1";
  /**
   * The largest response body returned, in bytes; a larger one fails the run. Escaped twice (into
   * the output, then into the child JVM's response) a body of control characters grows sevenfold,
   * and must still fit the kernel's default 1 MiB output limit.
   */
  public static final int MAX_RESPONSE_BYTES = 128 << 10;
  /** How long connecting may take. */
  public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /** How long the whole request may take, until the response headers arrive. */
  public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private static final List<String> METHODS = List.of("GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE");
  private static final List<String> SECTIONS = List.of("path", "query", "header", "cookie", "body");
  private static final int MAX_DEPTH = 64;
  private static final int MAX_BINDING_BYTES = 1 << 20;

  /** Creates the invoker; the binding is read on each run. */
  public HttpOperationInvoker() {}

  @Override
  public String execute(String inputJson, CapabilityContext context) {
    Properties binding = binding();
    Map<String, String> input = object(inputJson, "input");
    for (String member : input.keySet()) {
      if (!SECTIONS.contains(member)) {
        throw new IllegalArgumentException("input." + member + " is not one of " + SECTIONS);
      }
    }
    String method = required(binding, "method");
    if (!METHODS.contains(method)) {
      throw new IllegalStateException("the binding's method is not supported: " + method);
    }
    URI uri = target(binding, input);
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT);
    for (Map.Entry<String, String> header : section(input, "header", names(binding, "header")).entrySet()) {
      request.header(header.getKey(), headerValue(header.getKey(), header.getValue()));
    }
    StringBuilder cookies = new StringBuilder();
    for (Map.Entry<String, String> cookie : section(input, "cookie", names(binding, "cookie")).entrySet()) {
      cookies.append(cookies.length() == 0 ? "" : "; ").append(encode(cookie.getKey())).append('=').append(encode(cookie.getValue()));
    }
    if (cookies.length() > 0) {
      request.header("Cookie", cookies.toString());
    }
    request.method(method, body(binding.getProperty("body"), input.get("body"), request));
    // the path only: query values may be secrets, and the log is kept with the run
    context.log("capability-http: " + method + " " + uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath());
    return send(request.build());
  }

  /** The request URL: the binding's server, the expanded template and the query, checked to stay on that server. */
  private static URI target(Properties binding, Map<String, String> input) {
    String scheme = required(binding, "scheme");
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalStateException("the binding's scheme is not supported: " + scheme);
    }
    String host = required(binding, "host");
    int port = port(required(binding, "port"));
    String base = binding.getProperty("base", "");
    String path = expand(required(binding, "path"), section(input, "path", names(binding, "path")));
    StringBuilder query = new StringBuilder();
    for (Map.Entry<String, String> parameter : section(input, "query", names(binding, "query")).entrySet()) {
      query.append(query.length() == 0 ? "" : "&").append(encode(parameter.getKey())).append('=').append(encode(parameter.getValue()));
    }
    return checked(scheme + "://" + authority(host, port) + base + path + (query.length() == 0 ? "" : "?" + query),
        scheme, host, port, base);
  }

  private static String send(HttpRequest request) {
    // No proxy set here: the client then uses the JDK's default proxy selector, which reads the
    // http(s).proxyHost system properties the child-JVM executor sets for a run with filtered egress.
    HttpClient client = HttpClient.newBuilder()
        .followRedirects(HttpClient.Redirect.NEVER)
        .connectTimeout(CONNECT_TIMEOUT)
        .build();
    try {
      HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
      byte[] bytes;
      try (InputStream in = response.body()) {
        bytes = in.readNBytes(MAX_RESPONSE_BYTES + 1);
      }
      if (bytes.length > MAX_RESPONSE_BYTES) {
        throw new IllegalStateException("the response body is larger than " + MAX_RESPONSE_BYTES + " bytes");
      }
      StringBuilder output = new StringBuilder("{\"status\":").append(response.statusCode()).append(",\"body\":");
      quote(output, new String(bytes, StandardCharsets.UTF_8));
      return output.append('}').toString();
    } catch (IOException e) {
      throw new UncheckedIOException("the request to " + request.uri().getScheme() + "://" + request.uri().getRawAuthority() + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the response", e);
    }
  }

  private static Properties binding() {
    Properties binding = new Properties();
    try (InputStream in = HttpOperationInvoker.class.getResourceAsStream("/" + BINDING)) {
      if (in == null) {
        throw new IllegalStateException("the module has no " + BINDING);
      }
      byte[] bytes = in.readNBytes(MAX_BINDING_BYTES + 1);
      if (bytes.length > MAX_BINDING_BYTES) {
        throw new IllegalStateException(BINDING + " is larger than " + MAX_BINDING_BYTES + " bytes");
      }
      binding.load(new StringReader(new String(bytes, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + BINDING, e);
    }
    if (!FORMAT.equals(binding.getProperty("format"))) {
      throw new IllegalStateException(BINDING + " is not " + FORMAT);
    }
    return binding;
  }

  private static String required(Properties binding, String key) {
    String value = binding.getProperty(key);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException(BINDING + " has no '" + key + "'");
    }
    return value;
  }

  private static int port(String text) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 1 && port <= 65_535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalStateException(BINDING + " has an invalid port '" + text + "'");
  }

  private static List<String> names(Properties binding, String location) {
    List<String> names = new ArrayList<>();
    for (int i = 0; binding.getProperty(location + "." + i) != null; i++) {
      names.add(binding.getProperty(location + "." + i));
    }
    return names;
  }

  private static String authority(String host, int port) {
    return (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
  }

  /** The built URL must name exactly the declared server: nothing from the input may move it. */
  private static URI checked(String text, String scheme, String host, int port, String base) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      // The reason only: the URL holds the input's query values, which may be secrets.
      throw new IllegalArgumentException("the request URL is invalid at index " + e.getIndex() + ": " + e.getReason(), e);
    }
    String expectedHost = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    if (!scheme.equals(uri.getScheme()) || uri.getHost() == null || !expectedHost.equalsIgnoreCase(uri.getHost())
        || uri.getPort() != port || uri.getRawUserInfo() != null || uri.getRawFragment() != null
        || uri.getRawPath() == null || !uri.getRawPath().startsWith(base + "/")) {
      throw new IllegalArgumentException("the request URL leaves the declared server " + scheme + "://" + authority(host, port) + base);
    }
    return uri;
  }

  /** Replaces each {@code {name}} of the template; every value is percent-encoded, '/' and '.' included. */
  private static String expand(String template, Map<String, String> values) {
    StringBuilder path = new StringBuilder();
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if (c != '{') {
        path.append(c);
        i++;
        continue;
      }
      int close = template.indexOf('}', i);
      if (close < 0) {
        throw new IllegalStateException("the path template has an unclosed '{'");
      }
      String name = template.substring(i + 1, close);
      String value = values.get(name);
      if (value == null || value.isEmpty()) {
        throw new IllegalArgumentException("input.path." + name + " is required and must not be empty");
      }
      path.append(encode(value));
      i = close + 1;
    }
    return path.toString();
  }

  /** The scalar members of one input section; a member the binding does not name is refused. */
  private static Map<String, String> section(Map<String, String> input, String location, List<String> allowed) {
    String raw = input.get(location);
    Map<String, String> values = new LinkedHashMap<>();
    if (raw == null || raw.equals("null")) {
      return values;
    }
    for (Map.Entry<String, String> member : object(raw, "input." + location).entrySet()) {
      String where = "input." + location + "." + member.getKey();
      if (!allowed.contains(member.getKey())) {
        throw new IllegalArgumentException(where + " is not a parameter of this operation");
      }
      String value = scalar(member.getValue(), where);
      if (value != null) {
        values.put(member.getKey(), value);
      }
    }
    return values;
  }

  private static HttpRequest.BodyPublisher body(@Nullable String mediaType, @Nullable String raw, HttpRequest.Builder request) {
    if (mediaType == null || raw == null || raw.equals("null")) {
      if (raw != null && !raw.equals("null")) {
        throw new IllegalArgumentException("input.body: this operation takes no body");
      }
      return HttpRequest.BodyPublishers.noBody();
    }
    request.header("Content-Type", headerValue("Content-Type", mediaType));
    String type = mediaType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    boolean json = type.equals("application/json") || type.endsWith("+json");
    String text = json ? raw : scalar(raw, "input.body");
    return HttpRequest.BodyPublishers.ofString(text, StandardCharsets.UTF_8);
  }

  private static String headerValue(String name, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 && c != '\t' || c == 0x7f) {
        throw new IllegalArgumentException("header " + name + " has a control character");
      }
    }
    return value;
  }

  /** Percent-encodes UTF-8, keeping only RFC 3986's unreserved letters, digits, '-', '_' and '~'. */
  private static String encode(String value) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '~') {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16))).append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return out.toString();
  }

  // A minimal JSON reader: the runtime has already checked the input is strict JSON valid against
  // the schema, so this only finds members and decodes strings, and still fails closed.

  /** The members of a JSON object, each as its raw JSON text. */
  static Map<String, String> object(String json, String where) {
    int[] at = {skipSpace(json, 0)};
    if (at[0] >= json.length() || json.charAt(at[0]) != '{') {
      throw new IllegalArgumentException(where + " must be an object");
    }
    Map<String, String> members = new LinkedHashMap<>();
    at[0] = skipSpace(json, at[0] + 1);
    if (at[0] < json.length() && json.charAt(at[0]) == '}') {
      at[0]++;
    } else {
      while (true) {
        int keyEnd = skipString(json, at[0], where);
        String key = scalar(json.substring(at[0], keyEnd), where);
        at[0] = skipSpace(json, keyEnd);
        expect(json, at[0], ':', where);
        int start = skipSpace(json, at[0] + 1);
        int end = skipValue(json, start, 0, where);
        if (members.put(key, json.substring(start, end)) != null) {
          throw new IllegalArgumentException(where + " has the member '" + key + "' twice");
        }
        at[0] = skipSpace(json, end);
        if (at[0] < json.length() && json.charAt(at[0]) == ',') {
          at[0] = skipSpace(json, at[0] + 1);
          continue;
        }
        expect(json, at[0], '}', where);
        at[0]++;
        break;
      }
    }
    if (skipSpace(json, at[0]) != json.length()) {
      throw new IllegalArgumentException(where + " has trailing content");
    }
    return members;
  }

  /** A string's decoded text, a number's or boolean's text, or null for JSON null. */
  static @Nullable String scalar(String raw, String where) {
    if (raw.equals("null")) {
      return null;
    }
    if (raw.isEmpty() || raw.charAt(0) == '{' || raw.charAt(0) == '[') {
      throw new IllegalArgumentException(where + " must be a string, number or boolean");
    }
    if (raw.charAt(0) != '"') {
      return raw;
    }
    StringBuilder text = new StringBuilder();
    for (int i = 1; i < raw.length() - 1; i++) {
      char c = raw.charAt(i);
      if (c != '\\') {
        text.append(c);
        continue;
      }
      char escape = raw.charAt(++i);
      switch (escape) {
        case 'b' -> text.append('\b');
        case 'f' -> text.append('\f');
        case 'n' -> text.append('\n');
        case 'r' -> text.append('\r');
        case 't' -> text.append('\t');
        case 'u' -> {
          text.append((char) Integer.parseInt(raw.substring(i + 1, i + 5), 16));
          i += 4;
        }
        default -> text.append(escape);
      }
    }
    return text.toString();
  }

  private static int skipValue(String json, int at, int depth, String where) {
    if (depth > MAX_DEPTH || at >= json.length()) {
      throw new IllegalArgumentException(where + " is not valid JSON");
    }
    char c = json.charAt(at);
    if (c == '"') {
      return skipString(json, at, where);
    }
    if (c == '{' || c == '[') {
      char close = c == '{' ? '}' : ']';
      int i = skipSpace(json, at + 1);
      if (i < json.length() && json.charAt(i) == close) {
        return i + 1;
      }
      while (true) {
        if (c == '{') {
          i = skipSpace(json, skipString(json, i, where));
          expect(json, i, ':', where);
          i = skipSpace(json, i + 1);
        }
        i = skipSpace(json, skipValue(json, i, depth + 1, where));
        if (i < json.length() && json.charAt(i) == ',') {
          i = skipSpace(json, i + 1);
          continue;
        }
        expect(json, i, close, where);
        return i + 1;
      }
    }
    int i = at;
    while (i < json.length() && "+-.0123456789eEtruefalsn".indexOf(json.charAt(i)) >= 0) {
      i++;
    }
    if (i == at) {
      throw new IllegalArgumentException(where + " is not valid JSON at offset " + at);
    }
    return i;
  }

  private static int skipString(String json, int at, String where) {
    expect(json, at, '"', where);
    for (int i = at + 1; i < json.length(); i++) {
      char c = json.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '"') {
        return i + 1;
      } else if (c < 0x20) {
        break;
      }
    }
    throw new IllegalArgumentException(where + " has an unterminated string");
  }

  private static int skipSpace(String json, int at) {
    int i = at;
    while (i < json.length() && " \t\r\n".indexOf(json.charAt(i)) >= 0) {
      i++;
    }
    return i;
  }

  private static void expect(String json, int at, char c, String where) {
    if (at >= json.length() || json.charAt(at) != c) {
      throw new IllegalArgumentException(where + " is not valid JSON: expected '" + c + "' at offset " + at);
    }
  }

  private static void quote(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (c < 0x20 || c == 0x2028 || c == 0x2029) {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('"');
  }
}
