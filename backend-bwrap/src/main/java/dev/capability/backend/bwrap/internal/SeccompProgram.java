package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.linux.MemoryFile;
import dev.capability.linux.NativeCallException;
import java.util.Optional;
import java.util.OptionalInt;

/** One run's seccomp program in a memory file that bwrap reads with {@code --seccomp FD}. */
final class SeccompProgram implements AutoCloseable {
  private final Optional<MemoryFile> file;

  private SeccompProgram(Optional<MemoryFile> file) {
    this.file = file;
  }

  /** The program for {@code network}, or none when the backend does not load one. */
  static SeccompProgram of(Optional<SandboxSeccomp> seccomp, NetworkMode network) {
    if (seccomp.isEmpty()) {
      return new SeccompProgram(Optional.empty());
    }
    try {
      return new SeccompProgram(
          Optional.of(MemoryFile.of("capability-seccomp", seccomp.get().program(network))));
    } catch (NativeCallException e) {
      throw new LaunchFailedException(
          "cannot hand bwrap the seccomp program: " + e.getMessage(), e);
    }
  }

  /** This JVM's descriptor of the program, if there is one. */
  OptionalInt descriptor() {
    return file.map(f -> OptionalInt.of(f.descriptor())).orElse(OptionalInt.empty());
  }

  @Override
  public void close() {
    file.ifPresent(MemoryFile::close);
  }
}
