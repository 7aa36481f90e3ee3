package dev.capability.cli.internal;

import dev.capability.discovery.NetworkAccess;
import picocli.CommandLine.Option;

/** The allowances {@code search} and {@code import-openapi} share; without them only public HTTPS is reached. */
final class NetworkAccessOptions {
  @Option(names = "--allow-http", description = "Also allow plain http URLs (tests, labs).")
  boolean allowHttp;

  @Option(names = "--allow-loopback", description = "Also allow loopback addresses (localhost, 127.0.0.0/8, ::1); implies nothing else.")
  boolean allowLoopback;

  @Option(names = "--allow-private", description = "Also allow private, link-local and unique-local addresses.")
  boolean allowPrivate;

  NetworkAccess access() {
    return new NetworkAccess(allowHttp, allowLoopback, allowPrivate);
  }
}
