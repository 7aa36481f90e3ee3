package dev.capability.acquire;

import dev.capability.acquire.internal.HttpRepositorySource;
import dev.capability.acquire.internal.LocalRepositorySource;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/** The built-in {@link PackageSource}s. */
public final class PackageSources {
  private PackageSources() {}

  /** A directory in the standard Maven repository layout; files must not leave it through links. */
  public static PackageSource localRepository(Path root) {
    return new LocalRepositorySource(Objects.requireNonNull(root, "root"));
  }

  /**
   * A Maven repository over HTTPS. Redirects are never followed: a redirect is refused with
   * {@link AcquisitionCodes#SOURCE_REDIRECT}, so the bytes always come from the named origin.
   */
  public static PackageSource mavenRepository(URI root) {
    return new HttpRepositorySource(Objects.requireNonNull(root, "root"), false, HttpRepositorySource.DEFAULT_BODY_BUDGET);
  }

  /**
   * As {@link #mavenRepository(URI)}, but plain HTTP is allowed when {@code allowHttpLoopback} and
   * the host is a loopback address (a repository on this machine, such as a test fixture).
   */
  public static PackageSource mavenRepository(URI root, boolean allowHttpLoopback) {
    return mavenRepository(root, allowHttpLoopback, HttpRepositorySource.DEFAULT_BODY_BUDGET);
  }

  /**
   * As {@link #mavenRepository(URI, boolean)}, with a time budget for each response body (default
   * five minutes); a body not received within it is refused with {@link
   * AcquisitionCodes#DOWNLOAD_TIMED_OUT}.
   */
  public static PackageSource mavenRepository(URI root, boolean allowHttpLoopback, Duration bodyBudget) {
    return new HttpRepositorySource(
        Objects.requireNonNull(root, "root"), allowHttpLoopback, Objects.requireNonNull(bodyBudget, "bodyBudget"));
  }
}
