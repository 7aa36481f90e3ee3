package dev.capability.backend.tck;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * The suite's system call probe: a small C program ({@code syscall-probe.c} beside this class)
 * built once per JVM with {@code gcc -static}, so that it runs in any sandbox whatever C library
 * the sandbox shows. Each argument names one attempt, made with the raw {@code syscall(2)}:
 *
 * <ul>
 *   <li>a system call of {@code SandboxSyscallPolicy} ({@code io_uring_setup}, {@code bpf}, ...);
 *   <li>{@code clone:FLAGS}: {@code clone} with {@code FLAGS} (hexadecimal);
 *   <li>{@code socket:FAMILY:PROTOCOL}: {@code socket} of that family and protocol (decimal).
 * </ul>
 *
 * It prints one line per attempt, {@code NAME errno=N}, {@code NAME ok} or {@code NAME unknown}.
 * Every attempt's arguments are ones the kernel rejects, with an error other than the policy's
 * ({@code EINVAL}, {@code EFAULT}, {@code EBADF}, ...), so an attempt that no filter stops shows up
 * as a different error, never as an effect. The exceptions are the calls in {@link
 * #CAPABILITY_GATED}, which the kernel refuses with {@code EPERM} before it reads their arguments
 * when the caller lacks a capability.
 *
 * <p>When {@code gcc} or the static C library is missing, {@link #path()} skips the calling test
 * with the reason, or fails it under {@code CAPABILITY_REQUIRE_BACKENDS=1}, like {@link
 * BackendGate}.
 */
public final class SyscallProbe {
  /**
   * The attempts the kernel refuses with {@code EPERM} before reading their arguments when the
   * caller lacks the capability named here (its bit in {@code CapEff}): without it, {@code EPERM}
   * does not show that a filter denied them.
   */
  public static final Map<String, Integer> CAPABILITY_GATED =
      Map.of(
          "init_module", 16,
          "finit_module", 16,
          "delete_module", 16,
          "kexec_load", 22,
          "kexec_file_load", 22,
          "pivot_root", 21,
          "move_mount", 21,
          "fsopen", 21,
          "fspick", 21);

  private static final String SOURCE = "syscall-probe.c";
  private static @Nullable Built built;

  private SyscallProbe() {}

  /** What building gave: the program, or why there is none. */
  private record Built(@Nullable Path program, @Nullable String unavailable) {}

  /**
   * The probe, built on first use into a temporary directory that every user may read and enter.
   *
   * @throws org.opentest4j.TestAbortedException when it cannot be built here, so the calling test
   *     is skipped
   * @throws AssertionError instead, under {@code CAPABILITY_REQUIRE_BACKENDS=1}
   */
  public static Path path() {
    return path("1".equals(System.getenv(BackendGate.REQUIRE_VARIABLE)));
  }

  static synchronized Path path(boolean required) {
    if (built == null) {
      built = build();
    }
    if (built.program() == null) {
      String reason = "the syscall probe cannot be built here: " + built.unavailable();
      if (required) {
        fail(reason + " (" + BackendGate.REQUIRE_VARIABLE + "=1 requires it)");
      }
      Assumptions.abort(reason + " (set " + BackendGate.REQUIRE_VARIABLE + "=1 to fail instead)");
    }
    return built.program();
  }

  /**
   * The probe's report: each attempt's name mapped to its error number, empty when the call
   * succeeded.
   *
   * @throws AssertionError when a line is not a report of the probe's, or names an attempt the
   *     probe does not know
   */
  public static Map<String, OptionalInt> parse(String stdout) {
    Map<String, OptionalInt> outcomes = new LinkedHashMap<>();
    for (String line : stdout.lines().toList()) {
      int space = line.lastIndexOf(' ');
      String name = space > 0 ? line.substring(0, space) : line;
      String outcome = space > 0 ? line.substring(space + 1) : "";
      if (outcome.equals("ok")) {
        outcomes.put(name, OptionalInt.empty());
      } else if (outcome.matches("errno=[0-9]{1,4}")) {
        outcomes.put(name, OptionalInt.of(Integer.parseInt(outcome.substring(6))));
      } else {
        fail("the syscall probe reported '%s', not an outcome of a known attempt", line);
      }
    }
    return outcomes;
  }

  /** The attempt name for {@code clone} with {@code flags}. */
  public static String clone(long flags) {
    return "clone:" + Long.toHexString(flags);
  }

  /** The attempt name for {@code socket} of {@code family} with {@code protocol}. */
  public static String socket(int family, int protocol) {
    return "socket:" + family + ":" + protocol;
  }

  private static Built build() {
    Path gcc = Path.of("/usr/bin/gcc");
    if (!Files.isExecutable(gcc)) {
      return new Built(null, "no /usr/bin/gcc (install gcc and the static C library, libc6-dev)");
    }
    try {
      Path directory =
          Files.createTempDirectory(
              "ck-syscall-probe-",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
      Path source = directory.resolve(SOURCE);
      try (InputStream in = SyscallProbe.class.getResourceAsStream(SOURCE)) {
        Objects.requireNonNull(in, "the suite's resource " + SOURCE + " is missing");
        Files.write(source, in.readAllBytes());
      }
      Path program = directory.resolve("syscall-probe");
      Path log = directory.resolve("gcc.log");
      Process gccRun =
          new ProcessBuilder(
                  gcc.toString(), "-static", "-O1", "-o", program.toString(), source.toString())
              .directory(directory.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      int status = gccRun.waitFor();
      String output = Files.readString(log, StandardCharsets.UTF_8).strip();
      for (Path file : List.of(source, log)) {
        Files.delete(file);
      }
      directory.toFile().deleteOnExit();
      if (status != 0) {
        return new Built(
            null,
            "gcc -static failed (exit "
                + status
                + "; the static C library, libc6-dev, may be missing): "
                + output);
      }
      program.toFile().deleteOnExit();
      Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
      return new Built(program.toRealPath(), null);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot build the syscall probe in java.io.tmpdir", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while building the syscall probe", e);
    }
  }
}
