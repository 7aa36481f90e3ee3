package dev.capability.kernel.core.internal.authority;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel reads git's configuration without git, so it is held to what real git says: the
 * repository it opens is the one {@code git rev-parse} names, and the keys it finds are those
 * {@code git config --get-regexp} lists, in the same situations. Where it reads more than git
 * (conditional includes) or refuses (forms it cannot resolve), it is on the safe side.
 */
class GitConfigurationReaderTest {
  @TempDir Path temp;
  private Path home;
  private Path repository;
  private Map<String, String> environment;

  @BeforeEach
  void setUp() throws IOException {
    temp = temp.toRealPath();
    home = Files.createDirectories(temp.resolve("home"));
    repository = Git.initWithCommit(temp.resolve("repo"));
    // The search for a repository never leaves the test's directory.
    environment = Git.environment(home, Map.of("GIT_CEILING_DIRECTORIES", temp.toString()));
  }

  private GitConfigurationReader reader(Map<String, String> environment) {
    return new GitConfigurationReader(environment);
  }

  /** What {@code git LOCATION rev-parse} says git opens from {@code directory}, as real paths; empty outside a repository. */
  private Optional<GitConfigurationReader.Opened> revParse(Path directory, Map<String, String> environment, String... location) {
    List<String> argv = new ArrayList<>(List.of("git"));
    argv.addAll(List.of(location));
    argv.addAll(List.of("rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--show-toplevel"));
    Git.Result result = Git.exec(directory, environment, argv);
    List<String> lines = result.output().lines().filter(line -> line.startsWith("/")).toList();
    if (lines.isEmpty()) {
      assertThat(result.exitCode()).as(result.output()).isEqualTo(128);
      return Optional.empty();
    }
    Optional<Path> workTree = lines.size() == 3 ? Optional.of(real(lines.get(2))) : Optional.empty();
    return Optional.of(new GitConfigurationReader.Opened(real(lines.get(0)), real(lines.get(1)), workTree));
  }

  private static Path real(String path) {
    try {
      return Path.of(path).toRealPath();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private void assertOpensWhatGitOpens(Path directory, Map<String, String> environment, String... location) {
    Optional<GitConfigurationReader.Opened> expected = revParse(directory, environment, location);
    assertThat(reader(environment).opened(List.of(location), directory)).as("from %s with %s", directory, List.of(location))
        .isEqualTo(expected);
  }

  @Test
  void theRepositoryOpenedIsTheOneGitRevParseNames() throws IOException {
    Path sub = Files.createDirectories(repository.resolve("a/b"));
    Path nested = Git.initWithCommit(repository.resolve("nested"));
    Path bare = temp.resolve("bare.git");
    git(temp, "init", "-q", "--bare", bare.toString());
    Path linked = temp.resolve("linked");
    git(repository, "worktree", "add", "-q", linked.toString());
    Path separate = temp.resolve("separate");
    git(temp, "init", "-q", "--separate-git-dir", temp.resolve("separate.git").toString(), separate.toString());
    Path elsewhere = Files.createDirectories(temp.resolve("elsewhere"));

    assertOpensWhatGitOpens(repository, environment);
    assertOpensWhatGitOpens(sub, environment);
    assertOpensWhatGitOpens(repository.resolve(".git/refs"), environment);
    assertOpensWhatGitOpens(bare, environment);
    assertOpensWhatGitOpens(linked, environment);
    assertOpensWhatGitOpens(separate, environment);
    assertOpensWhatGitOpens(elsewhere, environment);
    assertOpensWhatGitOpens(repository, environment, "-C", "nested");
    assertOpensWhatGitOpens(nested, environment, "-C", "..", "-C", "a");
    assertOpensWhatGitOpens(elsewhere, environment, "--git-dir=" + repository.resolve(".git"));
    assertOpensWhatGitOpens(elsewhere, environment, "--git-dir", repository.resolve(".git").toString(), "--work-tree", sub.toString());
    assertOpensWhatGitOpens(bare, environment, "--bare");
    assertOpensWhatGitOpens(elsewhere, with("GIT_DIR", repository.resolve(".git").toString()));
    assertOpensWhatGitOpens(sub, environment, "--work-tree=" + linked);
    assertOpensWhatGitOpens(sub, with("GIT_WORK_TREE", linked.toString()));
    assertOpensWhatGitOpens(linked, environment, "-C", "..", "--git-dir", "separate.git");
    assertOpensWhatGitOpens(sub, with("GIT_CEILING_DIRECTORIES", repository.toString()));
    git(repository, "config", "core.worktree", sub.toString());
    assertOpensWhatGitOpens(repository.resolve(".git"), environment, "--git-dir=.");
    git(repository, "config", "--unset", "core.worktree");
    git(repository, "config", "core.bare", "true");
    assertOpensWhatGitOpens(repository, environment);
  }

  private Map<String, String> with(String name, String value) {
    Map<String, String> more = new HashMap<>(environment);
    more.put(name, value);
    return more;
  }

  /** The keys {@code git config --get-regexp} lists from {@code directory} for the kernel's pattern. */
  private Set<String> gitListed(Path directory, Map<String, String> environment) {
    Git.Result result = Git.exec(directory, environment,
        List.of("git", "config", "--null", "--name-only", "--get-regexp", GitProgramKeys.listingPattern()));
    assertThat(result.exitCode()).as(result.output()).isIn(0, 1);
    Set<String> keys = new TreeSet<>();
    for (String key : result.output().split("\0")) {
      if (!key.isEmpty()) {
        keys.add(key);
      }
    }
    return keys;
  }

  private Set<String> read(Path directory, Map<String, String> environment) {
    GitConfigurationReader reader = reader(environment);
    Optional<GitConfigurationReader.Opened> opened = reader.opened(List.of(), directory);
    Set<String> keys = new TreeSet<>();
    reader.keys(opened.map(GitConfigurationReader.Opened::gitDirectory), "").forEach(key -> keys.add(key.key()));
    return keys;
  }

  @Test
  void theKeysFoundAreTheKeysGitListsFromEveryFileItReads() throws IOException {
    Path xdg = Files.createDirectories(temp.resolve("xdg/git"));
    Files.writeString(xdg.resolve("config"), "[diff \"xdg\"]\n\ttextconv = x\n");
    Files.writeString(home.resolve(".gitconfig"), "[include]\n\tpath = global-included\n[alias]\n\tst = !x\n");
    Files.writeString(home.resolve("global-included"), "[filter \"Global.Included\"]\n\tclean = x\n");
    Path included = temp.resolve("repo-included");
    Files.writeString(included, "[include]\n\tpath = ~/from-home\n[merge \"m\"]\n\tdriver = x\n");
    Files.writeString(home.resolve("from-home"), "[core]\n\talternateRefsCommand = x\n");
    Files.writeString(temp.resolve("conditional"), "[imap]\n\ttunnel = x\n");
    git(repository, "config", "--add", "include.path", included.toString());
    // True for the repository and its linked worktree alike, as git evaluates it.
    git(repository, "config", "--add", "includeIf.gitdir:" + temp + "/.path", temp.resolve("conditional").toString());
    git(repository, "config", "--add", "include.path", temp.resolve("missing").toString());
    Files.writeString(repository.resolve(".git/config"), "[Diff.Old]\n\tTextConv = x\n[sendemail]\n\ttocmd\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.APPEND);
    Path linked = temp.resolve("linked");
    git(repository, "worktree", "add", "-q", linked.toString());
    git(repository, "config", "extensions.worktreeConfig", "true");
    git(linked, "config", "--worktree", "pager.log", "x");
    Map<String, String> withXdg = with("XDG_CONFIG_HOME", temp.resolve("xdg").toString());

    for (Path directory : List.of(repository, linked, temp.resolve("home"))) {
      for (Map<String, String> environment : List.of(environment, withXdg)) {
        assertThat(read(directory, environment)).as("from %s", directory).isNotEmpty().isEqualTo(gitListed(directory, environment));
      }
    }
    assertThat(read(linked, withXdg)).contains("diff.xdg.textconv", "alias.st", "filter.Global.Included.clean",
        "merge.m.driver", "core.alternaterefscommand", "imap.tunnel", "diff.old.textconv", "sendemail.tocmd", "pager.log");
    Map<String, String> onlyGlobal = with("GIT_CONFIG_GLOBAL", home.resolve("global-included").toString());
    assertThat(read(repository, onlyGlobal)).contains("filter.Global.Included.clean").doesNotContain("alias.st")
        .isEqualTo(gitListed(repository, onlyGlobal));
  }

  @Test
  void aConditionalIncludeIsReadWhateverItsCondition() throws IOException {
    Files.writeString(temp.resolve("conditional"), "[filter \"elsewhere\"]\n\tclean = x\n");
    git(repository, "config", "includeIf.gitdir:/nowhere/.path", temp.resolve("conditional").toString());
    git(repository, "config", "includeIf.onbranch:other.path", temp.resolve("conditional").toString());

    assertThat(gitListed(repository, environment)).as("git applies neither condition here").isEmpty();
    assertThat(read(repository, environment)).containsExactly("filter.elsewhere.clean");
  }

  @Test
  void anIncludeTheKernelCannotResolveAsGitWouldFailsClosed() throws IOException {
    for (String path : List.of("~root/x.config", "%(prefix)/etc/x.config")) {
      Files.writeString(repository.resolve(".git/config"), "[include]\n\tpath = " + path + "\n");

      assertThatThrownBy(() -> read(repository, environment)).as(path)
          .isInstanceOf(AuthorityException.class)
          .hasMessageContaining(path)
          .extracting(e -> ((AuthorityException) e).code()).isEqualTo("GIT_CONFIGURATION_UNREADABLE");
    }
  }

  @Test
  void includesNestedDeeperThanGitAllowsFailClosedAsGitDoes() throws IOException {
    Files.writeString(temp.resolve("loop.config"), "[include]\n\tpath = loop.config\n");
    git(repository, "config", "include.path", temp.resolve("loop.config").toString());

    assertThat(Git.exec(repository, environment, List.of("git", "config", "--list")).exitCode()).as("git refuses the loop").isNotZero();
    assertThatThrownBy(() -> read(repository, environment))
        .isInstanceOf(AuthorityException.class).hasMessageContaining("levels deep");
  }

  @Test
  void aFileThatIsNotUtf8OrNotGitConfigurationFailsClosed() throws IOException {
    Path config = repository.resolve(".git/config");
    Files.write(config, "[filter \"\377\"]\n\tclean = x\n".getBytes(StandardCharsets.ISO_8859_1));
    assertThatThrownBy(() -> read(repository, environment)).isInstanceOf(AuthorityException.class).hasMessageContaining("not UTF-8");

    Files.writeString(config, "clean = x\n");
    assertThatThrownBy(() -> read(repository, environment)).isInstanceOf(AuthorityException.class).hasMessageContaining("cannot be parsed");
  }

  @Test
  void aKeyOnTheLineOfItsSectionHeaderIsRefusedThoughGitReadsIt() throws IOException {
    Files.writeString(repository.resolve(".git/config"), "[filter \"evil\"] clean = x\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.APPEND);

    assertThat(gitListed(repository, environment)).containsExactly("filter.evil.clean");
    assertThatThrownBy(() -> read(repository, environment))
        .isInstanceOf(AuthorityException.class).hasMessageContaining("on the line of its section header");
  }

  @Test
  void linesEndedWithCarriageReturnsAreReadAsGitReadsThem() throws IOException {
    Files.writeString(repository.resolve(".git/config"), "[filter \"crlf\"]\r\n\tclean\r\n[diff \"crlf\"] ; comment\r\n\ttextconv = x\r\n",
        StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);

    assertThat(read(repository, environment)).containsExactly("diff.crlf.textconv", "filter.crlf.clean")
        .isEqualTo(gitListed(repository, environment));
  }

  @Test
  void aPipeWhereGitWouldReadIsNeverOpened() throws IOException, InterruptedException {
    Path fake = Files.createDirectories(repository.resolve("fake"));
    Files.createDirectories(fake.resolve("objects"));
    Files.createDirectories(fake.resolve("refs"));
    mkfifo(fake.resolve("HEAD"));
    mkfifo(repository.resolve("pipe.config"));
    Files.writeString(repository.resolve(".git/config"), "[include]\n\tpath = ../pipe.config\n", StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.APPEND);
    GitConfigurationReader reader = reader(environment);

    assertThat(reader.opened(List.of("-C", "fake"), repository)).as("a pipe named HEAD makes no repository")
        .map(GitConfigurationReader.Opened::gitDirectory).hasValue(repository.resolve(".git"));
    assertThatThrownBy(() -> reader.keys(Optional.of(repository.resolve(".git")), ""))
        .isInstanceOf(AuthorityException.class).hasMessageContaining("not a regular file");
    assertThat(read(home, with("GIT_CONFIG_GLOBAL", "/dev/null"))).as("/dev/null, read as empty").isEmpty();
  }

  private static void mkfifo(Path path) throws IOException, InterruptedException {
    Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
  }

  @Test
  void aRelativeGlobalConfigurationPathFailsClosed() {
    assertThatThrownBy(() -> read(repository, with("GIT_CONFIG_GLOBAL", "relative.config")))
        .isInstanceOf(AuthorityException.class).hasMessageContaining("GIT_CONFIG_GLOBAL");
  }
}
