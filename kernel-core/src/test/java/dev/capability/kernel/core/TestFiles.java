package dev.capability.kernel.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Fixtures made on the spot: executable scripts with fixed content. */
final class TestFiles {
  private TestFiles() {}

  /** Writes an executable {@code #!/bin/sh} script and returns its canonical path. */
  static Path script(Path dir, String name, String body) {
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve(name);
      Files.writeString(file, "#!/bin/sh\n" + body + "\n", StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
      return file.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
