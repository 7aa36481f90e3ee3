package dev.capability.kernel.core.internal.authority;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kernel creates missing write-scope roots inside the repository, and never through a link. */
class WriteScopeRootsTest {
  @TempDir Path tmp;
  private Path repository;
  private Path elsewhere;

  @BeforeEach
  void directories() throws IOException {
    repository = Files.createDirectory(tmp.resolve("repository")).toRealPath();
    elsewhere = Files.createDirectory(tmp.resolve("elsewhere")).toRealPath();
  }

  private EffectiveAuthority authority(List<String> scopes, AuthorityLayer... layers) {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeScopes(scopes)
        .protectedPaths(List.of("secret"))
        .executable(ExecutableRule.named("mvn").exact("-q", "test").build())
        .build();
    return EffectiveAuthority.of(policy, List.of(layers), repository);
  }

  @Test
  void missingRootsAreCreatedParentsFirstAndListed() throws IOException {
    Files.setAttribute(repository, "unix:mode", 0751);

    WriteScopeRoots.Creation creation = WriteScopeRoots.createMissing(authority(List.of("target/**", "build/gen/*.java")));

    assertThat(creation.refusal()).isEmpty();
    assertThat(creation.created()).containsExactly("build", "build/gen", "target");
    for (String created : creation.created()) {
      Path dir = repository.resolve(created);
      assertThat(Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)).as(created).isTrue();
      assertThat(mode(dir)).as("%s takes its parent's mode", created).isEqualTo(0751);
    }
  }

  @Test
  void aCreatedRootTakesItsParentsOwnerWhenTheKernelIsRoot() throws IOException {
    int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    Path parent = Files.createDirectory(repository.resolve("out"));
    if (self == 0) {
      Files.setAttribute(parent, "unix:uid", 65534);
    }

    WriteScopeRoots.createMissing(authority(List.of("out/classes/**")));

    assertThat(Files.getAttribute(repository.resolve("out/classes"), "unix:uid"))
        .as("root gives the directory to its parent's owner; anyone else makes its own")
        .isEqualTo(self == 0 ? 65534 : self);
  }

  @Test
  void onlyTheNarrowestRootOfAllLayersIsCreated() {
    AuthorityLayer phase = AuthorityLayer.builder(Kind.PHASE, "phase.json").writeScopes(List.of("target/classes/**")).build();

    WriteScopeRoots.Creation creation = WriteScopeRoots.createMissing(authority(List.of("target/**"), phase));

    assertThat(creation.created()).containsExactly("target", "target/classes");
  }

  @Test
  void existingRootsAndTheRepositoryItselfAreLeftAsTheyAre() throws IOException {
    Files.createDirectories(repository.resolve("target"));

    assertThat(WriteScopeRoots.createMissing(authority(List.of("target/**"))).created()).isEmpty();
    assertThat(WriteScopeRoots.createMissing(authority(List.of("**/*.class"))).created()).isEmpty();
  }

  @Test
  void aRootAScopeNamesInFullMayBeAFileAndIsNotCreated() {
    WriteScopeRoots.Creation creation = WriteScopeRoots.createMissing(authority(List.of("out/report.txt")));

    assertThat(creation.refusal()).isEmpty();
    assertThat(creation.created()).isEmpty();
    assertThat(repository.resolve("out")).doesNotExist();
  }

  @Test
  void aRootThatBecameASymbolicLinkIsRefusedAndNotFollowed() throws IOException {
    EffectiveAuthority authority = authority(List.of("target/**"));
    Files.createSymbolicLink(repository.resolve("target"), elsewhere);

    WriteScopeRoots.Creation creation = WriteScopeRoots.createMissing(authority);

    assertThat(creation.refusal()).hasValueSatisfying(d -> {
      assertThat(d.code()).isEqualTo("SCOPE_THROUGH_SYMLINK");
      assertThat(d.layer()).isEqualTo("builtin");
      assertThat(d.rule()).isEqualTo("writeScopes");
    });
    assertThat(creation.created()).isEmpty();
    assertThat(elsewhere).isEmptyDirectory();
  }

  @Test
  void aSymbolicLinkAboveAMissingRootIsRefusedAndNothingIsMadeWhereItPoints() throws IOException {
    EffectiveAuthority authority = authority(List.of("a/b/**"));
    Files.createSymbolicLink(repository.resolve("a"), elsewhere);

    WriteScopeRoots.Creation creation = WriteScopeRoots.createMissing(authority);

    assertThat(creation.refusal()).hasValueSatisfying(d -> assertThat(d.code()).isEqualTo("SCOPE_THROUGH_SYMLINK"));
    assertThat(elsewhere.resolve("b")).doesNotExist();
  }

  @Test
  void aFileInTheWayIsRefused() throws IOException {
    Files.writeString(repository.resolve("a"), "not a directory\n");

    WriteScopeRoots.Creation creation = WriteScopeRoots.createMissing(authority(List.of("a/b/**")));

    assertThat(creation.refusal()).hasValueSatisfying(d -> {
      assertThat(d.code()).isEqualTo("SCOPE_ROOT_NOT_CREATED");
      assertThat(d.message()).contains("\"a\" is not a directory");
    });
    assertThat(Files.readString(repository.resolve("a"))).isEqualTo("not a directory\n");
  }

  @Test
  void aProtectedRootIsNeverCreated() {
    WriteScopeRoots.Creation creation = WriteScopeRoots.createMissing(authority(List.of("secret/out/**")));

    assertThat(creation.refusal()).hasValueSatisfying(d -> {
      assertThat(d.code()).isEqualTo("SCOPE_ROOT_NOT_CREATED");
      assertThat(d.message()).contains("protected");
    });
    assertThat(repository.resolve("secret")).doesNotExist();
  }

  @Test
  void rootsBeforeARefusedOneAreStillListed() throws IOException {
    Files.writeString(repository.resolve("z"), "file\n");

    WriteScopeRoots.Creation creation = WriteScopeRoots.createMissing(authority(List.of("a/**", "z/y/**")));

    assertThat(creation.created()).containsExactly("a");
    assertThat(creation.refusal()).isPresent();
    try (Stream<Path> entries = Files.list(repository)) {
      assertThat(entries.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("a", "z");
    }
  }

  private static int mode(Path path) throws IOException {
    return (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
  }
}
