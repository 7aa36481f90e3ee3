package dev.capability.kernel.core.internal.authority;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.testing.Git;
import dev.capability.testing.Ownership;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
    environment = Git.environment(temp, Map.of());
  }

  /** An executable script outside the repository that creates marker {@code name} when run. */
  private Path helper(String name) throws IOException {
    Path script = temp.resolve(name + ".sh");
    Files.writeString(script, "#!/bin/sh\ntouch '" + markers.resolve(name) + "'\ncat\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  /** An executable script outside the repository that creates marker {@code name} and exits at once, reading nothing. */
  private Path marker(String name) throws IOException {
    Path script = temp.resolve(name + ".sh");
    Files.writeString(script, "#!/bin/sh\ntouch '" + markers.resolve(name) + "'\n");
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
    return neutralizedWithInput("", args);
  }

  private Git.Result neutralizedWithInput(String stdin, String... args) {
    List<String> argv = concat("git", args);
    GitNeutralizer.Neutralized neutralized =
        GitNeutralizer.neutralize(argv, environment, Optional.of(repository), repository);
    assertThat(neutralized.decision().allowed()).as(neutralized.decision().message()).isTrue();
    return Git.exec(repository, neutralized.environment(), neutralized.argv(), stdin);
  }

  /** Runs git as the kernel does, but with {@code safeDirectories} marked safe instead of the kernel's choice. */
  private Git.Result neutralizedWith(List<Path> safeDirectories, String... args) {
    List<String> argv = concat("git", args);
    List<GitNeutralizer.ConfiguredKey> keys = GitNeutralizer.list(argv, repository, environment).keys();
    GitNeutralizer.Neutralized neutralized = GitNeutralizer.neutralize(argv, environment, keys, safeDirectories);
    assertThat(neutralized.decision().allowed()).as(neutralized.decision().message()).isTrue();
    return Git.exec(repository, neutralized.environment(), neutralized.argv());
  }

  /** The names of the keys the kernel lists for {@code git args...} run in {@link #repository}. */
  private List<String> listedKeys(String... args) {
    return GitNeutralizer.list(concat("git", args), repository, environment).keys().stream()
        .map(GitNeutralizer.ConfiguredKey::key).toList();
  }

  private static List<GitNeutralizer.ConfiguredKey> keys(String... names) {
    return java.util.Arrays.stream(names).map(name -> new GitNeutralizer.ConfiguredKey(name, "file:test")).toList();
  }

  @Test
  void aPlantedFsmonitorHelperRunsOnlyWithoutNeutralization() throws IOException {
    git(repository, "config", "core.fsmonitor", helper("fsmonitor").toString());

    Git.Result safe = neutralized("status", "--short");
    assertThat(ran("fsmonitor")).as("fsmonitor ran under neutralization").isFalse();
    assertThat(safe.exitCode()).isZero();

    plain("status", "--short");
    assertThat(ran("fsmonitor")).as("the planted fsmonitor helper runs when git is not neutralized").isTrue();
  }

  @Test
  void aPlantedHookRunsOnlyWithoutNeutralization() throws IOException {
    Path hook = repository.resolve(".git/hooks/pre-commit");
    Files.copy(helper("pre-commit"), hook);
    Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));

    Git.Result safe = neutralized("commit", "-q", "--allow-empty", "-m", "neutralized");
    assertThat(safe.exitCode()).as(safe.output()).isZero();
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
    assertThat(safe.exitCode()).as(safe.output()).isZero();
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

    assertThat(listedKeys("status")).containsExactly("filter.odd=name.x.clean");
    assertThat(GitNeutralizer.neutralize(List.of("git", "status"), environment, keys("filter.odd=name.x.clean"), List.of()).configuration())
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
    assertThat(listedKeys("status")).contains("submodule.sub.ignore", "filter.planted.clean");

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
    assertThat(ran("external-diff")).as("the external diff ran under neutralization: %s", safe.output()).isFalse();
    assertThat(listedKeys("diff")).containsExactly("diff.external");
    assertThat(GitNeutralizer.neutralize(List.of("git", "diff"), environment, keys("diff.external"), List.of()).configuration())
        .contains("diff.external=");
    neutralized("diff", "--ext-diff");
    assertThat(ran("external-diff")).as("--ext-diff started the external diff under neutralization").isFalse();

    plain("diff");
    assertThat(ran("external-diff")).as("the planted external diff runs when git is not neutralized").isTrue();
  }

  @Test
  void aRepositoryAnotherUidOwnsIsSafeForExactlyThatRepository() throws IOException {
    assumeTrue(Ownership.currentUid() == 0, "giving the repository to another uid needs root; this test runs as uid " + Ownership.currentUid());
    Ownership.chownTree(repository, OTHER_UID);
    Files.writeString(repository.resolve("README"), "changed\n");

    Git.Result refused = plain("status", "--short");
    Git.Result elsewhere = neutralizedWith(List.of(temp), "status", "--short");
    Git.Result safe = neutralized("status", "--short");

    assertThat(refused.exitCode()).as(refused.output()).isEqualTo(128);
    assertThat(refused.output()).contains("dubious ownership");
    assertThat(elsewhere.exitCode()).as("another directory marked safe: %s", elsewhere.output()).isEqualTo(128);
    assertThat(safe.exitCode()).as(safe.output()).isZero();
    assertThat(safe.output()).contains("M README");
    assertThat(GitNeutralizer.neutralize(List.of("git", "status"), environment, List.of(), List.of(repository)).configuration())
        .endsWith("safe.directory=" + repository);
  }

  @Test
  void theDriversOfARepositoryAnotherUidOwnsAreFoundAndEmptied() throws IOException {
    assumeTrue(Ownership.currentUid() == 0, "giving the repository to another uid needs root; this test runs as uid " + Ownership.currentUid());
    Files.writeString(repository.resolve(".gitattributes"), "README filter=evil\n");
    git(repository, "config", "filter.evil.clean", helper("clean").toString());
    touchReadme(1_000_000_000L);
    Ownership.chownTree(repository, OTHER_UID);

    // A plain git silently skips the configuration of a repository another uid owns; the listing
    // must not, or it would miss the drivers the command, marked safe, would run.
    assertThat(Git.exec(repository, environment, List.of("git", "config", "--get-regexp", "^filter")).output()).isEmpty();
    assertThat(listedKeys("status")).containsExactly("filter.evil.clean");
    Git.Result safe = neutralized("status", "--short");
    assertThat(safe.exitCode()).as(safe.output()).isZero();
    assertThat(ran("clean")).as("the clean filter of a repository another uid owns ran").isFalse();
  }

  @Test
  void aSafeDirectorySmuggledThroughTheEnvironmentOrTheCommandIsNeverHonoured() throws IOException {
    assumeTrue(Ownership.currentUid() == 0, "giving the repository to another uid needs root; this test runs as uid " + Ownership.currentUid());
    Ownership.chownTree(repository, OTHER_UID);
    Map<String, String> smuggled = Git.environment(temp, Map.of(
        "GIT_CONFIG_COUNT", "1", "GIT_CONFIG_KEY_0", "safe.directory", "GIT_CONFIG_VALUE_0", "*",
        "GIT_CONFIG_PARAMETERS", "'safe.directory'='*'"));

    GitNeutralizer.Neutralized neutralized =
        GitNeutralizer.neutralize(List.of("git", "status"), smuggled, Optional.empty(), repository);
    Git.Result run = Git.exec(repository, neutralized.environment(), neutralized.argv());

    assertThat(Git.exec(repository, smuggled, List.of("git", "status")).exitCode()).as("the smuggled setting works on plain git").isZero();
    assertThat(run.exitCode()).as(run.output()).isEqualTo(128);
    assertThat(run.output()).contains("dubious ownership");
    assertOverride(List.of("git", "-c", "safe.directory=*", "status"), 1);
  }

  @Test
  void onlyTheRepositoryAndAWorkingDirectoryInsideItAreSafe() {
    Path inside = repository.resolve("src");
    Path outside = temp.resolve("elsewhere");

    Path nested = repository.resolve("nested");

    assertThat(GitNeutralizer.safeDirectories(Optional.empty(), repository, List.of(repository))).isEmpty();
    assertThat(GitNeutralizer.safeDirectories(Optional.of(repository), repository, List.of())).containsExactly(repository);
    assertThat(GitNeutralizer.safeDirectories(Optional.of(repository), inside, List.of())).containsExactly(repository, inside);
    assertThat(GitNeutralizer.safeDirectories(Optional.of(repository), outside, List.of())).containsExactly(repository);
    assertThat(GitNeutralizer.safeDirectories(Optional.of(repository), repository, List.of(repository, nested, outside)))
        .as("listed work trees inside the repository, never one outside it")
        .containsExactly(repository, nested);
    assertThat(GitNeutralizer.safeDirectories(Optional.of(Path.of("/srv/*")), Path.of("/srv/*"), List.of())).isEmpty();
  }

  @Test
  void aRepositoryWithoutDriversListsNone() {
    assertThat(listedKeys("status")).isEmpty();
  }

  @Test
  void theNeutralizedArgvPutsTheSettingsBeforeTheCommandsOwnArguments() {
    GitNeutralizer.Neutralized neutralized =
        GitNeutralizer.neutralize(List.of("git", "-C", "sub", "status", "-c"), environment, List.of(), List.of());

    assertThat(neutralized.argv()).startsWith("git", "--no-pager", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null");
    assertThat(neutralized.argv()).containsSubsequence("-c", "core.pager=cat").endsWith("-C", "sub", "status", "-c");
    assertThat(neutralized.configuration()).containsExactlyElementsOf(GitNeutralizer.SETTINGS);
    assertThat(neutralized.environment()).containsEntry("GIT_CONFIG_NOSYSTEM", "1").containsEntry("GIT_PAGER", "cat")
        .containsEntry("GIT_ASKPASS", "").containsEntry("HOME", temp.toString());
  }

  @Test
  void configurationPassedThroughTheEnvironmentIsReplaced() {
    Map<String, String> planted = Git.environment(temp, Map.of(
        "GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='/tmp/evil'",
        "GIT_CONFIG_COUNT", "1", "GIT_CONFIG_KEY_0", "core.fsmonitor", "GIT_CONFIG_VALUE_0", "/tmp/evil",
        "GIT_PAGER", "/tmp/evil"));

    Map<String, String> clean = GitNeutralizer.neutralize(List.of("git", "status"), planted, List.of(), List.of()).environment();
    Map<String, String> withDriver = GitNeutralizer.neutralize(List.of("git", "status"), planted, keys("diff.x.textconv"), List.of()).environment();

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
    assertOverride(List.of("git", "--exec-path=/tmp/evil", "status"), 1);
    assertThat(GitNeutralizer.neutralize(List.of("git", "-C", "-c", "status"), environment, List.of(), List.of()).decision().allowed()).isTrue();
  }

  @Test
  void neutralizationAppliesToRulesThatRunGit() {
    assertThat(GitNeutralizer.appliesTo(ExecutableRule.named("git").exact().build())).isTrue();
    assertThat(GitNeutralizer.appliesTo(ExecutableRule.atPath("g", Path.of("/usr/bin/git")).exact().build())).isTrue();
    assertThat(GitNeutralizer.appliesTo(ExecutableRule.named("gitk").exact().build())).isFalse();
    assertThat(GitNeutralizer.appliesTo(ExecutableRule.atPath("g", Path.of("/usr/bin/git-lfs")).exact().build())).isFalse();
  }

  /** A repository at {@code path} inside {@link #repository} whose README goes through the clean filter {@code name}. */
  private Path nestedWithCleanFilter(String path, String name) throws IOException {
    Path nested = Git.initWithCommit(repository.resolve(path));
    Files.writeString(nested.resolve(".gitattributes"), "README filter=planted\n");
    git(nested, "config", "filter.planted.clean", helper(name).toString());
    Files.setLastModifiedTime(nested.resolve("README"), java.nio.file.attribute.FileTime.fromMillis(1_100_000_000_000L));
    return nested;
  }

  @Test
  void aNestedRepositorysFilterNeverRunsWhenTheCommandGoesIntoItWithDashC() throws IOException {
    Path nested = nestedWithCleanFilter("nested", "nested-filter");

    Git.Result safe = neutralized("-C", "nested", "status", "--short");
    assertThat(safe.exitCode()).as(safe.output()).isZero();
    assertThat(ran("nested-filter")).as("the nested repository's filter ran under neutralization").isFalse();
    assertThat(listedKeys("-C", "nested", "status")).containsExactly("filter.planted.clean");
    assertThat(GitNeutralizer.list(List.of("git", "-C", "nested", "status"), repository, environment).workTrees())
        .as("the -C target is the repository git opens").startsWith(nested);

    Files.setLastModifiedTime(nested.resolve("README"), java.nio.file.attribute.FileTime.fromMillis(1_200_000_000_000L));
    plain("-C", "nested", "status", "--short");
    assertThat(ran("nested-filter")).as("the planted filter runs when git is not neutralized").isTrue();
  }

  @Test
  void anEmbeddedRepositorysFilterNeverRunsWhenTheCommandAsksGitToEnterIt() throws IOException {
    Path embedded = nestedWithCleanFilter("embedded", "embedded-filter");
    // Added as a gitlink without .gitmodules: git status treats it as a submodule it may enter.
    git(repository, "add", "embedded");

    Git.Result safe = neutralized("status", "--short", "--ignore-submodules=none");
    assertThat(safe.exitCode()).as(safe.output()).isZero();
    assertThat(ran("embedded-filter")).as("the embedded repository's filter ran under neutralization").isFalse();

    Files.setLastModifiedTime(embedded.resolve("README"), java.nio.file.attribute.FileTime.fromMillis(1_200_000_000_000L));
    plain("status", "--short", "--ignore-submodules=none");
    assertThat(ran("embedded-filter")).as("the planted filter runs when git is not neutralized").isTrue();
  }

  @Test
  void aSubmodulesOwnFiltersNeverRunWhenTheCommandEntersItOrChecksItOut() throws IOException {
    Path source = Git.initWithCommit(temp.resolve("subsource"));
    Files.writeString(source.resolve(".gitattributes"), "README filter=planted\n");
    git(source, "add", ".gitattributes");
    git(source, "commit", "-q", "-m", "attributes");
    git(repository, "-c", "protocol.file.allow=always", "submodule", "--quiet", "add", source.toString(), "sub");
    git(repository, "commit", "-q", "-m", "submodule");
    Path submodule = repository.resolve("sub");
    git(submodule, "config", "filter.planted.clean", helper("submodule-clean").toString());
    git(submodule, "config", "filter.planted.smudge", helper("submodule-smudge").toString());
    Files.setLastModifiedTime(submodule.resolve("README"), java.nio.file.attribute.FileTime.fromMillis(1_100_000_000_000L));

    neutralized("status", "--short", "--ignore-submodules=none");
    assertThat(ran("submodule-clean")).as("the submodule's clean filter ran under neutralization").isFalse();
    // Without a work tree the submodule is only a git directory under .git/modules, checked out again by update.
    git(repository, "submodule", "--quiet", "deinit", "-f", "sub");
    Git.Result update = neutralized("submodule", "--quiet", "update", "--init");
    assertThat(update.exitCode()).as(update.output()).isZero();
    assertThat(submodule.resolve("README")).as("the submodule was checked out").exists();
    assertThat(ran("submodule-smudge")).as("the submodule's smudge filter ran under neutralization").isFalse();

    Files.setLastModifiedTime(submodule.resolve("README"), java.nio.file.attribute.FileTime.fromMillis(1_200_000_000_000L));
    plain("status", "--short", "--ignore-submodules=none");
    assertThat(ran("submodule-clean")).as("the planted clean filter runs when git is not neutralized").isTrue();
    git(repository, "submodule", "--quiet", "deinit", "-f", "sub");
    plain("-c", "protocol.file.allow=always", "submodule", "--quiet", "update", "--init");
    assertThat(ran("submodule-smudge")).as("the planted smudge filter runs when git is not neutralized").isTrue();
  }

  @Test
  void theSshSigningKeyCommandNeverRunsWhenACommitIsSigned() throws IOException {
    git(repository, "config", "commit.gpgSign", "true");
    git(repository, "config", "gpg.format", "ssh");
    git(repository, "config", "gpg.ssh.defaultKeyCommand", helper("default-key-command").toString());

    neutralized("commit", "-q", "--allow-empty", "-m", "signed");
    assertThat(ran("default-key-command")).as("gpg.ssh.defaultKeyCommand ran under neutralization").isFalse();

    plain("commit", "-q", "--allow-empty", "-m", "signed");
    assertThat(ran("default-key-command")).as("the planted key command runs when git is not neutralized").isTrue();
  }

  @Test
  void aPlantedSigningProgramNeverRunsWhenACommitIsSigned() throws IOException {
    git(repository, "config", "commit.gpgSign", "true");
    git(repository, "config", "gpg.openpgp.program", helper("openpgp-program").toString());
    git(repository, "config", "gpg.x509.program", helper("x509-program").toString());

    neutralized("commit", "-q", "--allow-empty", "-m", "openpgp");
    git(repository, "config", "gpg.format", "x509");
    neutralized("commit", "-q", "--allow-empty", "-m", "x509");
    assertThat(ran("openpgp-program")).isFalse();
    assertThat(ran("x509-program")).isFalse();

    plain("commit", "-q", "--allow-empty", "-m", "x509");
    git(repository, "config", "gpg.format", "openpgp");
    plain("commit", "-q", "--allow-empty", "-m", "openpgp");
    assertThat(ran("x509-program")).isTrue();
    assertThat(ran("openpgp-program")).isTrue();
  }

  @Test
  void aPlantedGitProxyNeverRunsAlthoughNoCommandLineSettingCanOverrideIt() throws IOException {
    git(repository, "config", "core.gitProxy", helper("git-proxy").toString());

    neutralized("ls-remote", "git://example.invalid/x");
    assertThat(ran("git-proxy")).as("core.gitProxy ran under neutralization").isFalse();

    plain("-c", "core.gitProxy=", "ls-remote", "git://example.invalid/x");
    assertThat(ran("git-proxy")).as("an emptied core.gitProxy on the command line does not stop the planted one").isTrue();
  }

  @Test
  void aLocalRemotesHooksAndAlternateRefsCommandNeverRun() throws IOException {
    Path target = temp.resolve("target.git");
    git(temp, "init", "-q", "--bare", target.toString());
    Path hook = target.resolve("hooks/pre-receive");
    Files.copy(helper("remote-hook"), hook);
    Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));
    Path borrower = temp.resolve("borrower");
    git(temp, "clone", "-q", "--shared", repository.toString(), borrower.toString());
    git(borrower, "config", "core.alternateRefsCommand", helper("alternate-refs").toString());

    Git.Result push = neutralized("push", target.toString(), "main");
    Git.Result fetch = Git.exec(borrower, environment, GitNeutralizer.neutralize(List.of("git", "fetch", "-q", repository.toString()), environment, Optional.of(borrower), borrower).argv());
    assertThat(push.exitCode()).as(push.output()).isNotZero();
    assertThat(ran("remote-hook")).as("the local remote's hook ran under neutralization: %s", push.output()).isFalse();
    assertThat(ran("alternate-refs")).as("core.alternateRefsCommand ran under neutralization: %s", fetch.output()).isFalse();

    plain("-c", "core.hooksPath=/dev/null", "push", "-q", target.toString(), "main");
    Git.exec(borrower, environment, List.of("git", "fetch", "-q", repository.toString()));
    assertThat(ran("remote-hook")).as("the target's hook runs although core.hooksPath is set: git drops it for receive-pack").isTrue();
    assertThat(ran("alternate-refs")).as("the planted alternate refs command runs when git is not neutralized").isTrue();
  }

  @Test
  void anInteractiveDiffFilterNeverRuns() throws IOException {
    git(repository, "config", "interactive.diffFilter", helper("diff-filter").toString());
    git(repository, "config", "add.interactive.useBuiltin", "false");
    git(repository, "config", "color.ui", "always");
    Files.writeString(repository.resolve("README"), "changed\n");

    neutralizedWithInput("q\n", "add", "-p");
    assertThat(ran("diff-filter")).as("interactive.diffFilter ran under neutralization").isFalse();

    Git.exec(repository, environment, List.of("git", "add", "-p"), "q\n");
    assertThat(ran("diff-filter")).as("the planted diff filter runs when git is not neutralized").isTrue();
  }

  @Test
  void anImapTunnelNeverRuns() throws IOException {
    git(repository, "config", "imap.folder", "drafts");
    git(repository, "config", "imap.tunnel", marker("imap-tunnel").toString());
    String mbox = "From 1234 Mon Sep 17 00:00:00 2001\nFrom: a@example.invalid\nDate: Mon, 1 Jan 2001 00:00:00 +0000\n"
        + "Subject: s\n\nbody\n";

    neutralizedWithInput(mbox, "imap-send");
    assertThat(ran("imap-tunnel")).as("imap.tunnel ran under neutralization").isFalse();

    Git.exec(repository, environment, List.of("git", "imap-send"), mbox);
    assertThat(ran("imap-tunnel")).as("the planted tunnel runs when git is not neutralized").isTrue();
  }

  @Test
  void aPlantedBrowserManViewerOrToolPathNeverRuns() throws IOException {
    git(repository, "config", "browser.planted.cmd", helper("browser").toString());
    git(repository, "config", "man.planted.cmd", helper("man-viewer").toString());
    git(repository, "config", "man.viewer", "planted");
    git(repository, "config", "difftool.kdiff3.path", helper("difftool-path").toString());
    Files.writeString(repository.resolve("README"), "changed\n");

    neutralized("web--browse", "-b", "planted", "http://example.invalid/");
    neutralized("help", "-m", "config");
    neutralized("difftool", "-y", "-t", "kdiff3");
    assertThat(ran("browser")).isFalse();
    assertThat(ran("man-viewer")).isFalse();
    assertThat(ran("difftool-path")).isFalse();

    plain("web--browse", "-b", "planted", "http://example.invalid/");
    plain("help", "-m", "config");
    plain("difftool", "-y", "-t", "kdiff3");
    assertThat(ran("browser")).isTrue();
    assertThat(ran("man-viewer")).isTrue();
    assertThat(ran("difftool-path")).isTrue();
  }

  @Test
  void anExecPathOfTheCommandsChoosingIsRefused() throws IOException {
    Path commands = Files.createDirectories(temp.resolve("commands"));
    Files.copy(helper("exec-path"), commands.resolve("git-planted"));
    List<String> argv = List.of("git", "--exec-path=" + commands, "planted");

    Decision decision = GitNeutralizer.neutralize(argv, environment, Optional.of(repository), repository).decision();
    assertThat(decision.allowed()).isFalse();
    assertThat(decision.code()).isEqualTo("GIT_CONFIGURATION_OVERRIDE");
    assertThat(decision.message()).contains("--exec-path");

    Git.exec(repository, environment, argv);
    assertThat(ran("exec-path")).as("git runs the command's own program when --exec-path is let through").isTrue();
  }

  @Test
  void aSendEmailProgramRefusesTheCommandNamingTheKeyAndTheFile() {
    git(repository, "config", "sendemail.work.toCmd", "/tmp/evil");

    Decision decision = GitNeutralizer.neutralize(List.of("git", "status"), environment, Optional.of(repository), repository)
        .decision();

    assertThat(decision.allowed()).isFalse();
    assertThat(decision.code()).isEqualTo("GIT_CONFIGURATION_REFUSED");
    assertThat(decision.message()).contains("sendemail.work.tocmd", ".git/config", repository.resolve(".git").toString());
  }

    private void assertOverride(List<String> argv, int argIndex) {
    Decision decision = GitNeutralizer.neutralize(argv, environment, List.of(), List.of()).decision();
    assertThat(decision.allowed()).isFalse();
    assertThat(decision.code()).isEqualTo("GIT_CONFIGURATION_OVERRIDE");
    assertThat(decision.argIndex()).hasValue(argIndex);
  }


  private static List<String> concat(String first, String... rest) {
    List<String> all = new java.util.ArrayList<>();
    all.add(first);
    all.addAll(List.of(rest));
    return all;
  }
}
