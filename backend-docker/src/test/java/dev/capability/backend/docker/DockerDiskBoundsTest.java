package dev.capability.backend.docker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import dev.capability.kernel.api.backend.ResourceBound;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Disk attacks end with the bound they hit: the file size limit and the write budget. */
class DockerDiskBoundsTest {
  @TempDir Path tmp;
  private Path repository;
  private Path writable;

  @BeforeEach
  void repository() throws IOException {
    backend();
    repository = Files.createDirectory(tmp.resolve("repository"));
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(repository, PosixFilePermissions.fromString("rwxr-xr-x"));
    writable = Files.createDirectory(repository.resolve("out"));
    Files.setPosixFilePermissions(writable, PosixFilePermissions.fromString("rwxrwxrwx"));
  }

  private static ExecutionBackend backend() {
    return DockerGate.GATE.backend();
  }

  private LaunchSpec.Builder perl(String program) throws IOException {
    Path perl = Path.of("/usr/bin/perl").toRealPath();
    return LaunchSpec.builder(
            new PinnedExecutable(
                perl, Sha256.hex(Files.readAllBytes(perl)), perl.toString(), PinnedExecutable.Pinning.PROC_FD))
        .arguments(List.of("-e", program))
        .workingDirectory(repository)
        .repository(repository)
        .writableRoots(List.of(writable))
        .timeout(Duration.ofSeconds(300));
  }

  /** Writes {@code mebibytes} MiB to {@code name} in the writable root, then {@code after}. */
  private String writer(String name, int mebibytes, String after) {
    return "open(my $f, '>', '" + writable + "/" + name + "') or die $!; my $block = \"\\0\" x 1048576;"
        + " for (1.." + mebibytes + ") { print $f $block or die $! } close($f) or die $!; " + after;
  }

  @Test
  void advertisesTheFileSizeLimitAndTheWriteBudget() {
    assertThat(backend().capabilities())
        .contains(IsolationCapability.FILE_SIZE_LIMIT, IsolationCapability.WRITE_BUDGET);
  }

  @Test
  void writingPastTheWriteBudgetEndsTheContainerAndIsReported() throws IOException {
    LaunchResult control =
        backend().launch(perl(writer("small", 10, "exit 0")).maxWriteBytes(50L << 20).build());
    // 200 MiB with a 50 MiB budget; then it waits, so only the budget ends it before its timeout.
    LaunchResult attack =
        backend().launch(perl(writer("big", 200, "sleep 240")).maxWriteBytes(50L << 20).build());

    assertThat(control.exitCode()).as(control.stderr().text()).hasValue(0);
    assertThat(control.boundsHit()).isEmpty();
    assertThat(attack.boundsHit()).as(attack.toString()).contains(ResourceBound.WRITE_BUDGET);
    assertThat(attack.timedOut()).isFalse();
    assertThat(attack.termination()).isEqualTo("write-budget-kill");
  }

  @Test
  void aCommandEndedBySigxfszIsReportedAsTheFileSizeBound() throws IOException {
    LaunchResult big = backend().launch(perl(writer("big", 20, "exit 0")).maxFileBytes(10L << 20).build());
    LaunchResult sparse =
        backend()
            .launch(
                perl("open(my $f, '>', '" + writable + "/sparse') or die $!; truncate($f, 1 << 40) or die $!; exit 0")
                    .maxFileBytes(10L << 20)
                    .build());

    assertThat(big.exitCode()).as(big.stderr().text()).hasValue(128 + 25);
    assertThat(big.boundsHit()).containsExactly(ResourceBound.FILE_SIZE);
    assertThat(Files.size(writable.resolve("big"))).isEqualTo(10L << 20);
    assertThat(sparse.exitCode()).as(sparse.stderr().text()).hasValue(128 + 25);
    assertThat(sparse.boundsHit()).containsExactly(ResourceBound.FILE_SIZE);
    assertThat(Files.size(writable.resolve("sparse"))).isZero();
  }
}
