package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.core.internal.authority.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ExecutableRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plants helpers in real repositories and runs real git: without neutralization each helper runs
 * (its marker file appears), with the neutralized argv and environment none does.
 */
class GitNeutralizerTest {
  /** A uid that owns nothing on the host, for repositories another uid owns. */
  private static final int OTHER_UID = 12345;

  @TempDir Path temp;
  private Path repository;
  private Path markers;
  private Map<String, String> environment;

  @BeforeEach
  void repository() throws IOException {
    repository = Git.initWithCommit(temp.resolve("repo"));
    markers = Files.createDirectories(temp.resolve("markers"));
    environment = Git.baseEnvironment(temp, Map.of());
  }

  /** An executable script outside the repository that creates marker {@code name} when run. */
  private Path helper(String name) throws IOException {
    Path script = temp.resolve(name + ".sh");
    Files.writeString(script, "#!/bin/sh\ntouch '" + markers.resolve(name) + "'\ncat\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  /** Moves README's modification time, so that git must compare its content (through filters) again. */
  private void touchReadme(long seconds) throws IOException {
    Files.setLastModifiedTime(repository.resolve("README"), java.nio.file.attribute.FileTime.fromMillis(seconds * 1000));
  }

  private boolean ran(String name) {
    return Files.exists(markers.resolve(name));
  }

  private Git.Result plain(String... args) {
    return Git.exec(repository, environment, concat("git", args));
  }

  /** Runs git the way the kernel does for a request that names {@link #repository}. */
  private Git.Result neutralized(String... args) {
    return neutralizedWith(GitNeutralizer.safeDirectories(Optional.of(repository), repository), args);
  }

  private Git.Result neutralizedWith(List<Path> safeDirectories, String... args) {
    List<String> argv = concat("git", args);
    List<String> drivers = GitNeutralizer.configuredDrivers(gitExecutable(), repository, environment, safeDirectories);
    GitNeutralizer.Neutralized neutralized = GitNeutralizer.neutralize(argv, environment, drivers, safeDirectories);
    assertThat(neutralized.decision().allowed()).as(neutralized.decision().message()).isTrue();
    return Git.exec(repository, neutralized.environment(), neutralized.argv());
  }

  @Test
  void aPlantedFsmonitorHelperRunsOnlyWithoutNeutralization() throws IOException {
    git(repository, "config", "core.fsmonitor", helper("fsmonitor").toString());

    Git.Result safe = neutralized("status", "--short");
    assertThat(ran("fsmonitor")).as("fsmonitor ran under neutralization").isFalse();
    assertThat(safe.exit()).isZero();

    plain("status", "--short");
    assertThat(ran("fsmonitor")).as("the planted fsmonitor helper runs when git is not neutralized").isTrue();
  }

  @Test
  void aPlantedHookRunsOnlyWithoutNeutralization() throws IOException {
    Path hook = repository.resolve(".git/hooks/pre-commit");
    Files.copy(helper("pre-commit"), hook);
    Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));

    Git.Result safe = neutralized("commit", "-q", "--allow-empty", "-m", "neutralized");
    assertThat(safe.exit()).as(safe.output()).isZero();
    assertThat(ran("pre-commit")).isFalse();

    plain("commit", "-q", "--allow-empty", "-m", "plain");
    assertThat(ran("pre-commit")).isTrue();
  }

  @Test
  void aPlantedCleanFilterRunsOnlyWithoutNeutralization() throws IOException {
    Files.writeString(repository.resolve(".gitattributes"), "README filter=evil\n");
    git(repository, "config", "filter.evil.clean", helper("clean").toString());
    git(repository, "config", "filter.evil.required", "true");
    touchReadme(1_000_000_000L);

    Git.Result safe = neutralized("status", "--short");
    assertThat(safe.exit()).as(safe.output()).isZero();
    assertThat(ran("clean")).isFalse();

    touchReadme(1_100_000_000L);
    plain("status", "--short");
    assertThat(ran("clean")).isTrue();
  }

  @Test
  void aTextconvDriverAndAnAliasNeverRunUnderNeutralization() throws IOException {
    Files.writeString(repository.resolve(".gitattributes"), "README diff=evil\n");
    git(repository, "config", "diff.evil.textconv", helper("textconv").toString());
    git(repository, "config", "alias.st", "!" + helper("alias"));
    Files.writeString(repository.resolve("README"), "changed\n");

    neutralized("diff");
    neutralized("st");
    assertThat(ran("textconv")).isFalse();
    assertThat(ran("alias")).isFalse();

    plain("diff");
    plain("st");
    assertThat(ran("textconv")).isTrue();
    assertThat(ran("alias")).isTrue();
  }

  @Test
  void driversDefinedThroughAnIncludeOrUnderOddNamesAreFoundAndEmptied() throws IOException {
    Path included = temp.resolve("included.config");
    Files.writeString(included, "[filter \"odd=name.x\"]\n\tclean = " + helper("included") + "\n");
    git(repository, "config", "include.path", included.toString());
    Files.writeString(repository.resolve(".gitattributes"), "README filter=odd=name.x\n");
    touchReadme(1_000_000_000L);

    List<String> drivers = GitNeutralizer.configuredDrivers(gitExecutable(), repository, environment, List.of());
    assertThat(drivers).containsExactly("filter.odd=name.x.clean");
    assertThat(GitNeutralizer.neutralize(List.of("git", "status"), environment, drivers, List.of()).configuration())
        .contains("filter.odd=name.x.clean=", "filter.odd=name.x.required=false");

    neutralized("status", "--short");
    assertThat(ran("included")).isFalse();
    touchReadme(1_100_000_000L);
    plain("status", "--short");
    assertThat(ran("included")).isTrue();
  }

  @Test
  void aSubmodulesOwnFilterNeverRunsUnderNeutralizationEvenWhenTheRepositoryAsksGitToEnterIt() throws IOException {
    Path source = Git.initWithCommit(temp.resolve("subsource"));
    git(repository, "-c", "protocol.file.allow=always", "submodule", "--quiet", "add", source.toString(), "sub");
    git(repository, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "submodule");
    Path submodule = repository.resolve("sub");
    Files.writeString(submodule.resolve(".gitattributes"), "README filter=planted\n");
    git(submodule, "config", "filter.planted.clean", helper("submodule-filter").toString());
    // Asking git to enter the submodule, from the repository's configuration and from .gitmodules.
    git(repository, "config", "submodule.sub.ignore", "none");
    git(repository, "config", "-f", ".gitmodules", "submodule.sub.ignore", "none");
    Files.setLastModifiedTime(submodule.resolve("README"), java.nio.file.attribute.FileTime.fromMillis(1_100_000_000_000L));

    neutralized("status", "--short");
    neutralized("diff");
    assertThat(ran("submodule-filter")).as("the submodule's filter ran under neutralization").isFalse();
    assertThat(GitNeutralizer.configuredDrivers(gitExecutable(), repository, environment, List.of()))
        .contains("submodule.sub.ignore");

    plain("status", "--short");
    assertThat(ran("submodule-filter")).as("the planted submodule filter runs when git is not neutralized").isTrue();
  }

  @Test
  void aGitmodulesHeaderTheKernelCannotReadFailsClosed() throws IOException {
    Files.writeString(repository.resolve(".gitmodules"), "[submodule \"a\\\"b\"]\n\tpath = x\n");

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> GitNeutralizer.submoduleIgnoreKeys(repository))
        .isInstanceOf(dev.capability.kernel.api.authority.AuthorityException.class)
        .hasMessageContaining("cannot read");
    Files.writeString(repository.resolve(".gitmodules"), "[submodule \"lib/one\"]\n\tpath = one\n[core]\n[Submodule \"two\"]\n");
    assertThat(GitNeutralizer.submoduleIgnoreKeys(repository.resolve("README").getParent()))
        .containsExactly("submodule.lib/one.ignore", "submodule.two.ignore");
  }

  @Test
  void aPlantedExternalDiffNeverRunsUnderNeutralization() throws IOException {
    git(repository, "config", "diff.external", helper("external-diff").toString());
    Files.writeString(repository.resolve("README"), "changed\n");

    Git.Result safe = neutralized("diff");
    List<String> drivers = GitNeutralizer.configuredDrivers(gitExecutable(), repository, environment, List.of());
    assertThat(ran("external-diff")).as("the external diff ran under neutralization: %s", safe.output()).isFalse();
    assertThat(drivers).containsExactly("diff.external");
    assertThat(GitNeutralizer.neutralize(List.of("git", "diff"), environment, drivers, List.of()).configuration())
        .contains("diff.external=");
    neutralized("diff", "--ext-diff");
    assertThat(ran("external-diff")).as("--ext-diff started the external diff under neutralization").isFalse();

    plain("diff");
    assertThat(ran("external-diff")).as("the planted external diff runs when git is not neutralized").isTrue();
  }

  @Test
  void aRepositoryAnotherUidOwnsIsSafeForExactlyThatRepository() throws IOException {
    assumeTrue(Git.currentUid() == 0, "giving the repository to another uid needs root; this test runs as uid " + Git.currentUid());
    Git.chownTree(repository, OTHER_UID);
    Files.writeString(repository.resolve("README"), "changed\n");

    Git.Result refused = plain("status", "--short");
    Git.Result elsewhere = neutralizedWith(List.of(temp), "status", "--short");
    Git.Result safe = neutralized("status", "--short");

    assertThat(refused.exit()).as(refused.output()).isEqualTo(128);
    assertThat(refused.output()).contains("dubious ownership");
    assertThat(elsewhere.exit()).as("another directory marked safe: %s", elsewhere.output()).isEqualTo(128);
    assertThat(safe.exit()).as(safe.output()).isZero();
    assertThat(safe.output()).contains("M README");
    assertThat(GitNeutralizer.neutralize(List.of("git", "status"), environment, List.of(), List.of(repository)).configuration())
        .endsWith("safe.directory=" + repository);
  }

  @Test
  void theDriversOfARepositoryAnotherUidOwnsAreFoundAndEmptied() throws IOException {
    assumeTrue(Git.currentUid() == 0, "giving the repository to another uid needs root; this test runs as uid " + Git.currentUid());
    Files.writeString(repository.resolve(".gitattributes"), "README filter=evil\n");
    git(repository, "config", "filter.evil.clean", helper("clean").toString());
    touchReadme(1_000_000_000L);
    Git.chownTree(repository, OTHER_UID);

    // Without the safe directory git silently skips the configuration of a repository another uid
    // owns, and the listing would find none of its drivers.
    assertThat(GitNeutralizer.configuredDrivers(gitExecutable(), repository, environment, List.of())).isEmpty();
    assertThat(GitNeutralizer.configuredDrivers(gitExecutable(), repository, environment, List.of(repository)))
        .containsExactly("filter.evil.clean");
    Git.Result safe = neutralized("status", "--short");
    assertThat(safe.exit()).as(safe.output()).isZero();
    assertThat(ran("clean")).as("the clean filter of a repository another uid owns ran").isFalse();
  }

  @Test
  void aSafeDirectorySmuggledThroughTheEnvironmentOrTheCommandIsNeverHonoured() throws IOException {
    assumeTrue(Git.currentUid() == 0, "giving the repository to another uid needs root; this test runs as uid " + Git.currentUid());
    Git.chownTree(repository, OTHER_UID);
    Map<String, String> smuggled = Git.baseEnvironment(temp, Map.of(
        "GIT_CONFIG_COUNT", "1", "GIT_CONFIG_KEY_0", "safe.directory", "GIT_CONFIG_VALUE_0", "*",
        "GIT_CONFIG_PARAMETERS", "'safe.directory'='*'"));

    GitNeutralizer.Neutralized neutralized = GitNeutralizer.neutralize(List.of("git", "status"), smuggled, List.of(), List.of());
    Git.Result run = Git.exec(repository, neutralized.environment(), neutralized.argv());

    assertThat(Git.exec(repository, smuggled, List.of("git", "status")).exit()).as("the smuggled setting works on plain git").isZero();
    assertThat(run.exit()).as(run.output()).isEqualTo(128);
    assertThat(run.output()).contains("dubious ownership");
    assertOverride(List.of("git", "-c", "safe.directory=*", "status"), 1);
  }

  @Test
  void onlyTheRepositoryAndAWorkingDirectoryInsideItAreSafe() {
    Path inside = repository.resolve("src");
    Path outside = temp.resolve("elsewhere");

    assertThat(GitNeutralizer.safeDirectories(Optional.empty(), repository)).isEmpty();
    assertThat(GitNeutralizer.safeDirectories(Optional.of(repository), repository)).containsExactly(repository);
    assertThat(GitNeutralizer.safeDirectories(Optional.of(repository), inside)).containsExactly(repository, inside);
    assertThat(GitNeutralizer.safeDirectories(Optional.of(repository), outside)).containsExactly(repository);
    assertThat(GitNeutralizer.safeDirectories(Optional.of(Path.of("/srv/*")), Path.of("/srv/*"))).isEmpty();
  }

  @Test
  void aRepositoryWithoutDriversListsNone() {
    assertThat(GitNeutralizer.configuredDrivers(gitExecutable(), repository, environment, List.of())).isEmpty();
  }

  @Test
  void theNeutralizedArgvPutsTheSettingsBeforeTheCommandsOwnArguments() {
    GitNeutralizer.Neutralized neutralized = GitNeutralizer.neutralize(List.of("git", "-C", "sub", "status", "-c"), environment, List.of(), List.of());

    assertThat(neutralized.argv()).startsWith("git", "--no-pager", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null");
    assertThat(neutralized.argv()).containsSubsequence("-c", "core.pager=cat").endsWith("-C", "sub", "status", "-c");
    assertThat(neutralized.configuration()).containsExactlyElementsOf(GitNeutralizer.SETTINGS);
    assertThat(neutralized.environment()).containsEntry("GIT_CONFIG_NOSYSTEM", "1").containsEntry("GIT_PAGER", "cat")
        .containsEntry("GIT_ASKPASS", "").containsEntry("HOME", temp.toString());
  }

  @Test
  void configurationPassedThroughTheEnvironmentIsReplaced() {
    Map<String, String> planted = Git.baseEnvironment(temp, Map.of(
        "GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='/tmp/evil'",
        "GIT_CONFIG_COUNT", "1", "GIT_CONFIG_KEY_0", "core.fsmonitor", "GIT_CONFIG_VALUE_0", "/tmp/evil",
        "GIT_PAGER", "/tmp/evil"));

    Map<String, String> clean = GitNeutralizer.neutralize(List.of("git", "status"), planted, List.of(), List.of()).environment();
    Map<String, String> withDriver = GitNeutralizer.neutralize(List.of("git", "status"), planted, List.of("diff.x.textconv"), List.of()).environment();

    assertThat(clean).doesNotContainKeys("GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0");
    assertThat(clean).containsEntry("GIT_PAGER", "cat");
    assertThat(withDriver).containsEntry("GIT_CONFIG_COUNT", "1").containsEntry("GIT_CONFIG_KEY_0", "diff.x.textconv")
        .containsEntry("GIT_CONFIG_VALUE_0", "").doesNotContainKey("GIT_CONFIG_PARAMETERS");
  }

  @Test
  void aCommandThatSetsConfigurationBeforeItsSubcommandIsRefused() {
    assertOverride(List.of("git", "-c", "core.fsmonitor=/tmp/evil", "status"), 1);
    assertOverride(List.of("git", "-ccore.pager=evil", "log"), 1);
    assertOverride(List.of("git", "--config-env=core.pager=EVIL", "log"), 1);
    assertOverride(List.of("git", "--config-env", "core.pager=EVIL", "log"), 1);
    assertOverride(List.of("git", "-C", "sub", "--git-dir", "x", "-c", "a=b", "status"), 5);
    assertThat(GitNeutralizer.neutralize(List.of("git", "-C", "-c", "status"), environment, List.of(), List.of()).decision().allowed()).isTrue();
  }

  @Test
  void neutralizationAppliesToRulesThatRunGit() {
    assertThat(GitNeutralizer.appliesTo(ExecutableRule.named("git").exact().build())).isTrue();
    assertThat(GitNeutralizer.appliesTo(ExecutableRule.atPath("g", Path.of("/usr/bin/git")).exact().build())).isTrue();
    assertThat(GitNeutralizer.appliesTo(ExecutableRule.named("gitk").exact().build())).isFalse();
    assertThat(GitNeutralizer.appliesTo(ExecutableRule.atPath("g", Path.of("/usr/bin/git-lfs")).exact().build())).isFalse();
  }

  private void assertOverride(List<String> argv, int argIndex) {
    Decision decision = GitNeutralizer.neutralize(argv, environment, List.of(), List.of()).decision();
    assertThat(decision.allowed()).isFalse();
    assertThat(decision.code()).isEqualTo("GIT_CONFIGURATION_OVERRIDE");
    assertThat(decision.argIndex()).hasValue(argIndex);
  }

  private static Path gitExecutable() {
    return Arrays.stream(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
        .map(directory -> Path.of(directory, "git"))
        .filter(Files::isExecutable)
        .findFirst()
        .orElseThrow(() -> new AssertionError("git is not on PATH"));
  }

  private static List<String> concat(String first, String... rest) {
    List<String> all = new java.util.ArrayList<>();
    all.add(first);
    all.addAll(List.of(rest));
    return all;
  }
}
