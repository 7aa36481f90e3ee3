package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit over a span of work: every change since a manifest, by any means, held to the layers and scanned for secrets. */
class WorkingTreesTest {
  @TempDir Path tmp;

  private static LoadedPolicy policy() {
    return ExecutionPolicies.of(ExecutionPolicy.builder().projectWrites(ProjectWriteMode.SCOPED).writeScopes(List.of("src/**", "target/**"))
        .executable(ExecutableRule.named("git").exact("status").build()).build());
  }

  @Test
  void theManifestHoldsDigestsOfEverythingButGitAndTheLedger() throws Exception {
    Path repo = tmp.toRealPath();
    Files.createDirectories(repo.resolve(".git/objects"));
    Files.createDirectories(repo.resolve(".capability"));
    Files.writeString(repo.resolve(".capability/state.db"), "ledger");
    Files.createDirectories(repo.resolve("src"));
    Files.writeString(repo.resolve("src/A.java"), "class A {}\n");

    Map<String, String> manifest = WorkingTrees.manifest(repo);

    assertThat(manifest).containsOnlyKeys("src", "src/A.java");
    assertThat(manifest.get("src")).isEqualTo("dir");
    assertThat(manifest.get("src/A.java")).startsWith("file:644:").hasSize("file:644:".length() + 64);
  }

  @Test
  void changesOutsideTheNarrowestLayerAreViolationsAndSecretsAreFound() throws Exception {
    Path repo = tmp.toRealPath();
    Files.writeString(repo.resolve("README.md"), "# r\n");
    Map<String, String> since = WorkingTrees.manifest(repo);
    Files.createDirectories(repo.resolve("src/main"));
    Files.writeString(repo.resolve("src/main/A.java"), "class A { String k = \"AKIAIOSFODNN7EXAMPLQ\"; }\n");
    Files.createDirectories(repo.resolve("src/test"));
    Files.writeString(repo.resolve("src/test/T.java"), "class T {}\n");
    Files.delete(repo.resolve("README.md"));
    AuthorityLayer phase = AuthorityLayer.builder(Kind.PHASE, "phase").writeScopes(List.of("src/main/**")).build();

    WorkingTrees.ChangeAudit audit = WorkingTrees.audit(policy(), List.of(phase), List.of(), repo, since);

    assertThat(audit.changedPaths()).containsExactly("README.md", "src", "src/main", "src/main/A.java", "src/test", "src/test/T.java");
    assertThat(audit.violations()).extracting(v -> v.path() + " " + v.kind() + " " + v.layer())
        .containsExactly("README.md DELETED operator", "src/test CREATED phase", "src/test/T.java CREATED phase");
    assertThat(audit.secrets().findings()).extracting(f -> f.source()).containsExactly("src/main/A.java");
  }

  @Test
  void anEmptyNewDirectoryOutsideTheScopesIsAViolationAndAContractsProtectedPathsCount() throws Exception {
    Path repo = tmp.toRealPath();
    Map<String, String> since = WorkingTrees.manifest(repo);
    Files.createDirectories(repo.resolve("target"));
    Files.createDirectories(repo.resolve("src/main/gen"));
    Files.writeString(repo.resolve("src/main/gen/G.java"), "class G {}\n");
    Files.createDirectories(repo.resolve("elsewhere"));

    WorkingTrees.ChangeAudit audit = WorkingTrees.audit(policy(), List.of(), List.of("src/main/gen"), repo, since);

    assertThat(audit.violations()).extracting(v -> v.path())
        .containsExactly("elsewhere", "src/main/gen", "src/main/gen/G.java");
  }
}
