package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which protected paths a writable root exposes, shared by the bwrap and docker layouts. */
class ExposedProtectedPathsTest {
  private static final Path REPOSITORY = Path.of("/work/repository");

  private static LaunchSpec.Builder spec() {
    return LaunchSpec.builder(
            new PinnedExecutable(Path.of("/usr/bin/true"), "0".repeat(64), "/usr/bin/true", PinnedExecutable.Pinning.PROC_FD))
        .workingDirectory(REPOSITORY);
  }

  @Test
  void keepsOnlyWhatAWritableRootExposesFromEitherSide() {
    LaunchSpec launch = spec()
        .repository(REPOSITORY)
        .writableRoots(List.of(REPOSITORY.resolve("src"), REPOSITORY.resolve(".git/hooks")))
        .protectedPaths(List.of(REPOSITORY.resolve(".git"), REPOSITORY.resolve("src/.env"), REPOSITORY.resolve("docs"), Path.of("/elsewhere/.git")))
        .build();

    assertThat(HostPaths.exposedProtectedPaths(launch)).containsExactly(REPOSITORY.resolve(".git"), REPOSITORY.resolve("src/.env"));
  }

  @Test
  void refusesAnExposedPathOutsideTheRepositoryAndProtectionWithoutARepository() {
    LaunchSpec outside = spec()
        .repository(REPOSITORY)
        .writableRoots(List.of(Path.of("/work")))
        .protectedPaths(List.of(Path.of("/work/other/.git")))
        .build();
    LaunchSpec noRepository = spec().protectedPaths(List.of(REPOSITORY.resolve(".git"))).build();

    assertThatThrownBy(() -> HostPaths.exposedProtectedPaths(outside)).isInstanceOf(LaunchFailedException.class).hasMessageContaining("outside the repository");
    assertThatThrownBy(() -> HostPaths.exposedProtectedPaths(noRepository)).isInstanceOf(LaunchFailedException.class).hasMessageContaining("names no repository");
  }

  @Test
  void aNamedDirectoryIsAbsoluteNormalizedAndNeverTheRoot() {
    assertThat(SystemPaths.namedDirectory("/home/ada/")).contains(Path.of("/home/ada"));
    assertThat(SystemPaths.namedDirectory("/run/user/1000/../1000")).contains(Path.of("/run/user/1000"));
    assertThat(SystemPaths.namedDirectory("/")).isEmpty();
    assertThat(SystemPaths.namedDirectory("relative")).isEmpty();
    assertThat(SystemPaths.namedDirectory(null)).isEmpty();
  }
}
