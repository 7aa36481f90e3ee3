package dev.capability.discovery.internal;

import dev.capability.capability.runtime.support.Printable;
import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.discovery.DiscoveryCodes;
import dev.capability.discovery.IndexRefusedException;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One HTTP/1.1 GET to an address that was already checked, reading the body under a byte limit
 * and a deadline. It exists because the JDK clients of Java 17 resolve host names themselves
 * (a second, unchecked DNS answer) and follow or hide redirects and transfer codings.
 *
 * <p>HTTPS verifies the server certificate against the JDK trust store and the URL's host name.
 * Only {@code 200} is accepted; a {@code 3xx} is {@link DiscoveryCodes#INDEX_REDIRECT}. Content
 * codings are refused; chunked and length-delimited bodies are read, as is a body delimited by
 * the end of the connection.
 */
public final class BoundedHttpGet {
  private static final int MAX_LINE = 8 * 1024;
  private static final int MAX_HEADERS = 100;

  private final long deadlineNanos;
  private final SSLContext tls;
  private long bodyBytesRead;

  /**
   * @param deadlineNanos a {@link System#nanoTime()} value after which reading stops
   * @param tls the trust for HTTPS, normally {@link SSLContext#getDefault()}
   */
  public BoundedHttpGet(long deadlineNanos, SSLContext tls) {
    this.deadlineNanos = deadlineNanos;
    this.tls = tls;
  }

  /** Body bytes read by every call so far, those of abandoned and failed bodies included. */
  public long bodyBytesRead() {
    return bodyBytesRead;
  }

  /**
   * Reads {@code url}'s body from {@code address}. A body over {@code limit} bytes fails with
   * {@code limitCode}; running past the deadline fails with {@link DiscoveryCodes#INDEX_TIME_EXCEEDED}.
   */
  public byte[] get(URI url, InetAddress address, long limit, String limitCode) {
    boolean https = url.getScheme().equals("https");
    int port = url.getPort() != -1 ? url.getPort() : https ? 443 : 80;
    try (Socket plain = new Socket()) {
      plain.connect(new InetSocketAddress(address, port), remainingMillis());
      plain.setSoTimeout(remainingMillis());
      Socket socket = https ? tls(tls, plain, url.getHost(), port) : plain;
      try {
        OutputStream out = socket.getOutputStream();
        out.write(request(url).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = new BufferedInputStream(new DeadlineStream(socket, this));
        return readResponse(url, in, limit, limitCode);
      } finally {
        if (socket != plain) {
          socket.close();
        }
      }
    } catch (SocketTimeoutException e) {
      throw timeExceeded(url);
    } catch (IOException e) {
      if (pastDeadline()) {
        throw timeExceeded(url);
      }
      throw new IndexRefusedException(DiscoveryCodes.INDEX_UNREACHABLE, UrlCredentials.redacted(url) + " could not be read: " + e.getMessage(), e);
    }
  }

  private static Socket tls(SSLContext context, Socket plain, String host, int port) throws IOException {
    SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true);
    SSLParameters parameters = socket.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    if (!host.startsWith("[") && !Character.isDigit(host.charAt(host.length() - 1))) {
      parameters.setServerNames(List.of(new SNIHostName(host)));
    }
    socket.setSSLParameters(parameters);
    socket.startHandshake();
    return socket;
  }

  private static String request(URI url) {
    String target = url.getRawPath() + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
    String host = url.getHost() + (url.getPort() == -1 ? "" : ":" + url.getPort());
    return "GET " + target + " HTTP/1.1\r\n"
        + "Host: " + host + "\r\n"
        + "Accept: application/json\r\n"
        + "Accept-Encoding: identity\r\n"
        + "User-Agent: capability-kernel-discovery\r\n"
        + "Connection: close\r\n\r\n";
  }

  private byte[] readResponse(URI url, InputStream in, long limit, String limitCode) throws IOException {
    String status = readLine(in, url);
    String[] parts = status.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("[0-9]{3}")) {
      throw unreachable(url, "answered with a malformed status line");
    }
    int code = Integer.parseInt(parts[1]);
    long contentLength = -1;
    boolean chunked = false;
    for (int count = 0; ; count++) {
      String line = readLine(in, url);
      if (line.isEmpty()) {
        break;
      }
      if (count >= MAX_HEADERS) {
        throw unreachable(url, "sent more than " + MAX_HEADERS + " header lines");
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw unreachable(url, "sent a malformed header line");
      }
      String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> {
          if (!value.matches("[0-9]{1,18}") || (contentLength != -1 && contentLength != Long.parseLong(value))) {
            throw unreachable(url, "sent an invalid or conflicting Content-Length");
          }
          contentLength = Long.parseLong(value);
        }
        case "transfer-encoding" -> {
          if (!value.equalsIgnoreCase("chunked")) {
            throw unreachable(url, "uses transfer coding '" + Printable.escaped(value) + "'; only chunked is read");
          }
          chunked = true;
        }
        case "content-encoding" -> {
          if (!value.equalsIgnoreCase("identity")) {
            throw unreachable(url, "uses content coding '" + Printable.escaped(value) + "'; compressed indexes are refused");
          }
        }
        default -> { }
      }
    }
    if (code >= 300 && code < 400) {
      throw new IndexRefusedException(DiscoveryCodes.INDEX_REDIRECT, UrlCredentials.redacted(url) + " answered " + code + "; redirects are not followed");
    }
    if (code != 200) {
      throw unreachable(url, "answered " + code);
    }
    if (chunked && contentLength != -1) {
      throw unreachable(url, "sent both Content-Length and chunked transfer coding");
    }
    if (contentLength > limit) {
      throw new FetchLimitException(limitCode, UrlCredentials.redacted(url) + " declares " + contentLength + " bytes; the limit is " + limit);
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    long before = bodyBytesRead;
    if (chunked) {
      readChunked(url, in, body, limit, limitCode);
    } else {
      copy(url, in, body, contentLength == -1 ? Long.MAX_VALUE : contentLength, limit, limitCode);
      if (contentLength != -1 && bodyBytesRead - before != contentLength) {
        throw unreachable(url, "ended its body early");
      }
    }
    return body.toByteArray();
  }

  private void readChunked(URI url, InputStream in, ByteArrayOutputStream body, long limit, String limitCode)
      throws IOException {
    while (true) {
      String line = readLine(in, url);
      int semicolon = line.indexOf(';');
      String size = (semicolon >= 0 ? line.substring(0, semicolon) : line).trim();
      if (!size.matches("[0-9A-Fa-f]{1,15}")) {
        throw unreachable(url, "sent a malformed chunk size");
      }
      long length = Long.parseLong(size, 16);
      if (length == 0) {
        while (!readLine(in, url).isEmpty()) {
          // trailers carry nothing we read
        }
        return;
      }
      copy(url, in, body, length, limit, limitCode);
      if (!readLine(in, url).isEmpty()) {
        throw unreachable(url, "sent a chunk without its terminating line break");
      }
    }
  }

  private void copy(URI url, InputStream in, ByteArrayOutputStream body, long length, long limit, String limitCode)
      throws IOException {
    byte[] buffer = new byte[8192];
    long left = length;
    while (left > 0) {
      int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (n < 0) {
        if (length == Long.MAX_VALUE) {
          return;
        }
        throw unreachable(url, "ended its body early");
      }
      bodyBytesRead += n;
      if (body.size() + (long) n > limit) {
        throw new FetchLimitException(limitCode, UrlCredentials.redacted(url) + " sent more than " + limit + " bytes; abandoned");
      }
      body.write(buffer, 0, n);
      left -= n;
    }
  }

  private static String readLine(InputStream in, URI url) throws IOException {
    StringBuilder line = new StringBuilder();
    while (true) {
      int c = in.read();
      if (c < 0) {
        throw unreachable(url, "closed the connection in the middle of the response");
      }
      if (c == '\n') {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') {
          line.setLength(end - 1);
        }
        return line.toString();
      }
      if (line.length() >= MAX_LINE) {
        throw unreachable(url, "sent a line longer than " + MAX_LINE + " bytes");
      }
      line.append((char) c);
    }
  }

  private int remainingMillis() {
    long remaining = deadlineNanos - System.nanoTime();
    if (remaining <= 0) {
      throw new FetchLimitException(DiscoveryCodes.INDEX_TIME_EXCEEDED, "the time budget ran out");
    }
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, remaining / 1_000_000));
  }

  private boolean pastDeadline() {
    return System.nanoTime() - deadlineNanos >= 0;
  }

  private static FetchLimitException timeExceeded(URI url) {
    return new FetchLimitException(DiscoveryCodes.INDEX_TIME_EXCEEDED, UrlCredentials.redacted(url) + " was still being read when the time budget ran out");
  }

  private static IndexRefusedException unreachable(URI url, String why) {
    return new IndexRefusedException(DiscoveryCodes.INDEX_UNREACHABLE, UrlCredentials.redacted(url) + " " + why);
  }

  /** Gives every read only the time left until the deadline. */
  private static final class DeadlineStream extends InputStream {
    private final Socket socket;
    private final InputStream in;
    private final BoundedHttpGet owner;

    DeadlineStream(Socket socket, BoundedHttpGet owner) throws IOException {
      this.socket = socket;
      this.in = socket.getInputStream();
      this.owner = owner;
    }

    @Override
    public int read() throws IOException {
      socket.setSoTimeout(owner.remainingMillis());
      return in.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      socket.setSoTimeout(owner.remainingMillis());
      return in.read(buffer, offset, length);
    }
  }
}
