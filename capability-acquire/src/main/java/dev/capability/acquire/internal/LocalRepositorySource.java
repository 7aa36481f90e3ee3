package dev.capability.acquire.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import dev.capability.acquire.PackageSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/** A directory in the Maven layout. A file reached through a link that leaves the root is refused. */
public final class LocalRepositorySource implements PackageSource {
  private final Path root;

  public LocalRepositorySource(Path root) {
    this.root = root.toAbsolutePath().normalize();
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
    Path file = root.resolve(RelativePaths.check(path));
    try {
      Path realRoot = root.toRealPath();
      Path real = file.toRealPath();
      if (!real.startsWith(realRoot)) {
        throw new AcquisitionRefusedException(
            AcquisitionCodes.SOURCE_INVALID, file + " resolves to " + real + ", outside the repository " + realRoot);
      }
      if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) {
        throw new AcquisitionRefusedException(AcquisitionCodes.SOURCE_INVALID, file + " is not a regular file");
      }
      return Optional.of(Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new AcquisitionRefusedException(AcquisitionCodes.SOURCE_UNAVAILABLE, "cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
