package dev.capability.kernel.core.internal.authority;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.core.internal.authority.GitProgramKeys.Key;
import dev.capability.kernel.core.internal.authority.GitProgramKeys.Treatment;
import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One test per key of {@link GitProgramKeys}: each key is set to a program in a real repository's
 * configuration, and real git, run the way the kernel runs it, is asked which value it uses.
 */
class GitProgramKeysTest {
  private static final String PLANTED = "/planted/program";

  /**
   * Every key of git 2.39 ({@code git help config}) whose value names a program or a command, or
   * which switches one on (ext:: URLs, local transports), as git documents it.
   */
  private static final List<String> GIT_2_39_PROGRAM_KEYS = List.of(
      "core.fsmonitor", "core.hooksPath", "core.pager", "pager.<cmd>", "core.editor", "sequence.editor", "core.askPass",
      "core.sshCommand", "core.gitProxy", "core.alternateRefsCommand", "credential.helper", "credential.<url>.helper",
      "gpg.program", "gpg.openpgp.program", "gpg.x509.program", "gpg.ssh.program", "gpg.ssh.defaultKeyCommand",
      "filter.<driver>.clean", "filter.<driver>.smudge", "filter.<driver>.process", "diff.external",
      "diff.<driver>.textconv", "diff.<driver>.command", "merge.<driver>.driver", "difftool.<tool>.cmd",
      "difftool.<tool>.path", "mergetool.<tool>.cmd", "mergetool.<tool>.path", "remote.<name>.uploadpack",
      "remote.<name>.receivepack", "alias.<name>", "uploadpack.packObjectsHook", "interactive.diffFilter",
      "imap.tunnel", "browser.<tool>.cmd", "browser.<tool>.path", "man.<tool>.cmd", "man.<tool>.path",
      "guitool.<name>.cmd", "instaweb.httpd", "submodule.<name>.update", "protocol.ext.allow", "protocol.file.allow",
      "sendemail.[<identity>.]sendmailCmd", "sendemail.[<identity>.]smtpServer", "sendemail.[<identity>.]toCmd",
      "sendemail.[<identity>.]ccCmd", "sendemail.[<identity>.]headerCmd");

  /** Keys that look like programs, or pull in configuration, and are left alone on purpose. */
  private static final List<String> DELIBERATELY_HARMLESS = List.of(
      "include.path", "includeIf.<condition>.path", "init.templateDir", "ssh.variant", "gpg.format",
      "gpg.ssh.allowedSignersFile", "user.signingKey", "diff.tool", "merge.tool", "web.browser", "man.viewer",
      "remote.<name>.vcs", "url.<base>.insteadOf");

  @TempDir Path temp;
  private Path repository;
  private Map<String, String> environment;

  @BeforeEach
  void repository() throws IOException {
    repository = Git.initWithCommit(temp.resolve("repo"));
    environment = Git.environment(temp, Map.of());
  }

  static Stream<Key> always() {
    return of(Treatment.ALWAYS);
  }

  static Stream<Key> whenSet() {
    return of(Treatment.WHEN_SET);
  }

  static Stream<Key> refused() {
    return of(Treatment.REFUSED);
  }

  static Stream<Key> harmless() {
    return of(Treatment.HARMLESS);
  }

  private static Stream<Key> of(Treatment treatment) {
    return GitProgramKeys.ALL.stream().filter(key -> key.treatment() == treatment);
  }

  /** Concrete names of {@code key}: every chosen name becomes {@code planted}; an optional one is left out, then given. */
  private static List<String> instances(Key key) {
    String name = key.name().replaceAll("<[^>]*>", "planted");
    if (!name.contains("[")) {
      return List.of(name);
    }
    return List.of(name.replaceAll("\\[[^]]*]", ""), name.replaceAll("[\\[\\]]", ""));
  }

  /** The name as git lists it: section and variable in lower case, the planted subsection as it is. */
  private static String listed(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  /** What neutralized git says {@code name} is set to in {@link #repository}. */
  private String neutralizedValue(String name) {
    GitNeutralizer.Neutralized neutralized = GitNeutralizer.neutralize(
        List.of("git", "config", "--get", name), environment, Optional.of(repository), repository);
    assertThat(neutralized.decision().allowed()).as(neutralized.decision().message()).isTrue();
    Git.Result result = Git.exec(repository, neutralized.environment(), neutralized.argv());
    assertThat(result.exitCode()).as("git config --get %s: %s", name, result.output()).isZero();
    return result.output();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("always")
  void aFixedKeyHasTheKernelsValueWhateverTheRepositorySays(Key key) {
    git(repository, "config", key.name(), PLANTED);

    assertThat(neutralizedValue(key.name())).isEqualTo(key.value() + "\n");
    assertThat(GitNeutralizer.SETTINGS).contains(key.name() + "=" + key.value());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("whenSet")
  void aKeySetInTheRepositoryIsListedAndGetsItsNeutralValue(Key key) {
    for (String name : instances(key)) {
      git(repository, "config", name, PLANTED);

      assertThat(GitNeutralizer.list(List.of("git", "status"), repository, environment).keys())
          .anySatisfy(found -> {
            assertThat(found.key()).isEqualTo(listed(name));
            assertThat(found.origin()).contains(".git/config");
          });
      assertThat(neutralizedValue(name)).as(name).isEqualTo(key.value() + "\n");
      if (key.name().startsWith("filter.")) {
        assertThat(neutralizedValue("filter.planted.required")).isEqualTo("false\n");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void aKeyNoValueNeutralizesRefusesTheCommandNamingTheKeyAndTheFile(Key key) {
    for (String name : instances(key)) {
      git(repository, "config", name, PLANTED);

      Decision decision = GitNeutralizer.neutralize(
          List.of("git", "status"), environment, Optional.of(repository), repository).decision();

      assertThat(decision.allowed()).as(name).isFalse();
      assertThat(decision.code()).isEqualTo("GIT_CONFIGURATION_REFUSED");
      assertThat(decision.message()).contains(listed(name), ".git/config");
      git(repository, "config", "--unset", name);
    }
  }

  @Test
  void theGitProxyIsOverriddenThroughTheEnvironmentGitDocumentsAsWinning() {
    Key proxy = of(Treatment.ENVIRONMENT).filter(key -> key.name().equals("core.gitProxy")).findFirst().orElseThrow();
    git(repository, "config", "core.gitProxy", PLANTED);

    GitNeutralizer.Neutralized neutralized = GitNeutralizer.neutralize(
        List.of("git", "status"), environment, Optional.of(repository), repository);

    assertThat(proxy.value()).isEqualTo("GIT_PROXY_COMMAND=");
    assertThat(neutralized.environment()).containsEntry("GIT_PROXY_COMMAND", "");
    assertThat(GitNeutralizer.ENVIRONMENT).containsEntry("GIT_PROXY_COMMAND", "");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("harmless")
  void aHarmlessKeyIsLeftAloneForAReasonItStates(Key key) {
    for (String name : instances(key)) {
      git(repository, "config", name, PLANTED);

      assertThat(GitNeutralizer.list(List.of("git", "status"), repository, environment).keys())
          .extracting(GitNeutralizer.ConfiguredKey::key).doesNotContain(listed(name));
    }
    assertThat(key.why()).isNotBlank();
  }

  @Test
  void everyKeyOfGitThatNamesAProgramIsNeutralizedOrRefused() {
    List<String> handled = GitProgramKeys.ALL.stream().filter(key -> key.treatment() != Treatment.HARMLESS).map(Key::name).toList();
    List<String> harmless = harmless().map(Key::name).toList();

    assertThat(handled).containsAll(GIT_2_39_PROGRAM_KEYS);
    assertThat(harmless).containsAll(DELIBERATELY_HARMLESS);
    List<String> all = GitProgramKeys.ALL.stream().map(Key::name).toList();
    assertThat(all).doesNotHaveDuplicates();
  }

  @Test
  void theListingPatternAndTheClassificationAgreeWhateverAChosenNameHolds() {
    Pattern listing = Pattern.compile(GitProgramKeys.listingPattern(), Pattern.DOTALL);
    List<String> names = new ArrayList<>();
    Stream.concat(whenSet(), refused()).forEach(key -> names.addAll(instances(key)));
    names.add("filter.odd\nname.with.dots.clean");
    names.add("alias.x");

    for (String name : names) {
      String key = listed(name).replace("odd\nname", "Odd\nName");
      assertThat(listing.matcher(key).matches()).as(key).isTrue();
      assertThat(GitProgramKeys.listed(key)).as(key).isPresent();
    }
    for (String name : Arrays.asList("core.bare", "filter.x.required", "diff.x.binary", "credential.helper", "gpg.program")) {
      assertThat(listing.matcher(name).matches()).as(name).isFalse();
    }
  }

}
