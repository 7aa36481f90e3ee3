package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.GIT_CONFIGURATION_OVERRIDE;
import static dev.capability.kernel.api.authority.AuthorityCodes.GIT_CONFIGURATION_REFUSED;
import static dev.capability.kernel.api.authority.AuthorityCodes.GIT_CONFIGURATION_UNREADABLE;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.PolicyCodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs git with the programs that configuration can start switched off. An allowed
 * {@code git status} reads {@code .git/config}, and through it may start a file-system monitor,
 * a clean filter, a pager or a credential helper: code the operator never allowed. Neutralizing
 * is on unless the policy says {@code "neutralizeGit": false}. {@link GitProgramKeys} is the list
 * of every key that names a program, with how each is handled.
 *
 * <p>Fixed settings go on the command line ({@link #SETTINGS}, after {@code --no-pager}). Keys
 * under a name the repository chooses ({@code filter.NAME.clean}, aliases, ...), and fixed-name
 * keys that are only neutralized when set, are found by reading the configuration of every
 * repository the command may open ({@link #list}): the one git starts in (the command's own
 * {@code -C}, {@code --git-dir}, {@code --work-tree} and {@code --bare} applied), and the
 * submodules and nested repositories below it ({@link GitRepositories}). The kernel reads it in
 * this JVM ({@link GitConfigurationReader}) and starts no process to do so, so deciding a git
 * command, {@code check} included, launches nothing. Each key found gets its
 * neutral value through {@code GIT_CONFIG_COUNT}, whose keys need no quoting and which git hands
 * on to the git processes it starts in submodules. A key no value neutralizes refuses the command
 * ({@code GIT_CONFIGURATION_REFUSED}), naming the key and where it is set.
 *
 * <p>A command that sets configuration itself before its subcommand ({@code git -c ...},
 * {@code --config-env}) is refused: its settings would come after the kernel's and win. So is
 * {@code --exec-path=DIR}, which makes git run its commands from {@code DIR}.
 *
 * <p>The sandbox runs as a uid that does not own the repository, and git (since 2.35.2) refuses to
 * work in such a repository ("dubious ownership"), because its configuration could start programs.
 * With that configuration neutralized, the kernel marks safe with {@code -c safe.directory=PATH}
 * exactly the repository the request names, the working directory when it is another directory
 * inside it, and the work trees inside it whose configuration it listed. Git honours
 * {@code safe.directory} from the command line as protected configuration. Each value is a real
 * absolute path, never {@code *}, never taken from the command or its environment, and it is
 * recorded with the other settings.
 */
public final class GitNeutralizer {
  private GitNeutralizer() {}

  /** The configuration key that lets git work in a repository another uid owns. */
  public static final String SAFE_DIRECTORY = "safe.directory";

  /** The settings every neutralized git command gets with {@code -c}, in order. */
  public static final List<String> SETTINGS = GitProgramKeys.alwaysSettings();

  /**
   * Environment variables every neutralized git command gets: no system configuration, the
   * variables that would override the pager, editors and askpass helper set to harmless values,
   * and those of {@link GitProgramKeys.Treatment#ENVIRONMENT} keys.
   */
  public static final Map<String, String> ENVIRONMENT = environmentSettings();

  /** The most bytes of a {@code .gitmodules} file the kernel reads. */
  static final long MAX_GITMODULES_BYTES = 1L << 20;

  /**
   * A git command ready to launch, or the reason it may not.
   *
   * @param decision allowed, or refused with {@code GIT_CONFIGURATION_OVERRIDE} at the offending
   *     argument or {@code GIT_CONFIGURATION_REFUSED} naming a key
   * @param argv the argv to launch: argv[0], {@code --no-pager}, the {@code -c} settings, then the
   *     command's own arguments; empty when refused
   * @param environment the environment to launch with
   * @param configuration every setting the kernel imposed, as {@code key=value}, for the attestation
   */
  public record Neutralized(Decision decision, List<String> argv, Map<String, String> environment, List<String> configuration) {
    public Neutralized {
      Objects.requireNonNull(decision, "decision");
      argv = List.copyOf(argv);
      environment = Map.copyOf(environment);
      configuration = List.copyOf(configuration);
    }
  }

  /**
   * A key found in git's configuration.
   *
   * @param key its name as git lists it: section and variable in lower case
   * @param origin where it is set ({@code file:PATH}), with the repository it was listed for
   */
  record ConfiguredKey(String key, String origin) {
    ConfiguredKey {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(origin, "origin");
    }
  }

  /**
   * What the kernel read before launch.
   *
   * @param keys the keys of {@link GitProgramKeys} set in any repository the command may open
   * @param workTrees the work trees of the repositories listed, the one git starts in first
   */
  record Listing(List<ConfiguredKey> keys, List<Path> workTrees) {
    Listing {
      keys = List.copyOf(keys);
      workTrees = List.copyOf(workTrees);
    }
  }

  /** Whether {@code rule} runs git: its bare name, or the file name of its path, is {@code git}. */
  public static boolean appliesTo(ExecutableRule rule) {
    return rule.name().map("git"::equals)
        .orElseGet(() -> rule.path().map(path -> path.getFileName() != null && path.getFileName().toString().equals("git")).orElse(false));
  }

  /**
   * Neutralizes the git command {@code argv}: refuses its configuration options, lists the
   * configuration of every repository it may open ({@link #list}), and builds the argv and
   * environment to launch. Starts no process.
   *
   * @param environment the command's environment; configuration passed through it
   *     ({@code GIT_CONFIG_PARAMETERS}, {@code GIT_CONFIG_COUNT} and its keys and values) is replaced
   * @param repository the request's repository, a real absolute path
   * @param workingDirectory the request's working directory, a real absolute path
   * @throws AuthorityException {@code GIT_CONFIGURATION_UNREADABLE} when the configuration cannot
   *     be listed, {@code GIT_DIRECTORY_INVALID} for a {@code .git} below that leads nowhere
   */
  public static Neutralized neutralize(
      List<String> argv, Map<String, String> environment, Optional<Path> repository, Path workingDirectory) {
    Optional<Decision> refusal = optionRefusal(argv);
    if (refusal.isPresent()) {
      return refused(refusal.get(), environment);
    }
    Listing listing = list(argv, workingDirectory, environment);
    return neutralize(argv, environment, listing.keys(), safeDirectories(repository, workingDirectory, listing.workTrees()));
  }

  /**
   * Neutralizes the git command {@code argv} with the keys already listed.
   *
   * @param keys keys found by {@link #list}
   * @param safeDirectories the directories git may work in although another uid owns them, from
   *     {@link #safeDirectories}
   */
  static Neutralized neutralize(
      List<String> argv, Map<String, String> environment, List<ConfiguredKey> keys, List<Path> safeDirectories) {
    Objects.requireNonNull(argv, "argv");
    Objects.requireNonNull(environment, "environment");
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(safeDirectories, "safeDirectories");
    Optional<Decision> refusal = optionRefusal(argv);
    if (refusal.isPresent()) {
      return refused(refusal.get(), environment);
    }
    for (ConfiguredKey key : keys) {
      GitProgramKeys.Key entry = known(key.key());
      if (entry.treatment() == GitProgramKeys.Treatment.REFUSED) {
        return refused(Decision.deny(GIT_CONFIGURATION_REFUSED, PolicyCodes.LAYER_BUILTIN, "neutralizeGit",
            "git configuration key " + Printable.quote(key.key()) + " (" + key.origin() + ") names a program the kernel"
                + " cannot keep from running: " + entry.why()), environment);
      }
    }
    List<String> settings = settings(safeDirectories);
    List<String> neutralized = new ArrayList<>();
    neutralized.add(argv.get(0));
    neutralized.add("--no-pager");
    for (String setting : settings) {
      neutralized.add("-c");
      neutralized.add(setting);
    }
    neutralized.addAll(argv.subList(1, argv.size()));
    Map<String, String> keySettings = keySettings(keys);
    List<String> configuration = new ArrayList<>(settings);
    keySettings.forEach((key, value) -> configuration.add(key + "=" + value));
    return new Neutralized(Decision.allow(PolicyCodes.LAYER_BUILTIN, "neutralizeGit"), neutralized,
        environment(environment, keySettings), configuration);
  }

  private static Neutralized refused(Decision decision, Map<String, String> environment) {
    return new Neutralized(decision, List.of(), environment, List.of());
  }

  /**
   * The directories a neutralized git command may work in although another uid owns them: the
   * repository, the working directory when it is another directory inside it, and each of
   * {@code workTrees} inside it. Nothing without a repository. A path whose last name is
   * {@code *} is left out, because newer git reads {@code DIR/*} as every directory below
   * {@code DIR}.
   *
   * @param repository the request's repository, a real absolute path
   * @param workingDirectory the request's working directory, a real absolute path
   * @param workTrees work trees whose configuration the kernel listed, real absolute paths
   */
  static List<Path> safeDirectories(Optional<Path> repository, Path workingDirectory, List<Path> workTrees) {
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(workTrees, "workTrees");
    if (repository.isEmpty()) {
      return List.of();
    }
    Set<Path> directories = new LinkedHashSet<>();
    directories.add(repository.get());
    if (workingDirectory.startsWith(repository.get())) {
      directories.add(workingDirectory);
    }
    for (Path workTree : workTrees) {
      if (workTree.startsWith(repository.get())) {
        directories.add(workTree);
      }
    }
    return directories.stream()
        .filter(directory -> directory.getFileName() == null || !directory.getFileName().toString().equals("*"))
        .toList();
  }

  /** {@link #SETTINGS}, then {@code safe.directory} for each of {@code safeDirectories}. */
  private static List<String> settings(List<Path> safeDirectories) {
    List<String> settings = new ArrayList<>(SETTINGS);
    for (Path directory : safeDirectories) {
      if (!directory.isAbsolute()) {
        throw new IllegalArgumentException("a safe directory must be absolute: " + directory);
      }
      settings.add(SAFE_DIRECTORY + "=" + directory);
    }
    return settings;
  }

  /**
   * Lists the keys of {@link GitProgramKeys} set in every repository {@code argv} may open, as git
   * sees them from {@code workingDirectory} with {@code environment}, includes followed: the
   * repository git starts in (found with the command's own {@code -C}, {@code --git-dir},
   * {@code --work-tree} and {@code --bare}), and every repository below it
   * ({@link GitRepositories#below}). Outside any repository only the global configuration is
   * listed. Adds {@code submodule.NAME.ignore} for every submodule a listed work tree's
   * {@code .gitmodules} names ({@link #submoduleIgnoreKeys}).
   *
   * <p>The configuration is read in this JVM by {@link GitConfigurationReader}, which starts no
   * process, whoever owns each repository (the sandbox uid may own one the kernel's uid does not)
   * and bare ones too (the operator's configuration may refuse implicit bare repositories, which
   * the sandbox may not see).
   *
   * @throws AuthorityException {@code GIT_CONFIGURATION_UNREADABLE} when a configuration cannot be
   *     read as git would read it, or the search for repositories meets a bound
   */
  static Listing list(List<String> argv, Path workingDirectory, Map<String, String> environment) {
    Objects.requireNonNull(argv, "argv");
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(environment, "environment");
    GitConfigurationReader reader = new GitConfigurationReader(environment(environment, Map.of()));
    Map<String, ConfiguredKey> keys = new LinkedHashMap<>();
    List<Path> workTrees = new ArrayList<>();
    Optional<GitConfigurationReader.Opened> opened = reader.opened(locationOptions(argv), workingDirectory);
    String where = opened.map(o -> " in the repository " + o.gitDirectory()).orElse("");
    for (ConfiguredKey key : reader.keys(opened.map(GitConfigurationReader.Opened::gitDirectory), where)) {
      keys.putIfAbsent(key.key() + "\0" + key.origin(), key);
    }
    if (opened.isPresent()) {
      List<Path> gitDirectories = new ArrayList<>();
      opened.get().workTree().ifPresent(workTrees::add);
      for (GitRepositories.Repository repository
          : GitRepositories.below(opened.get().gitDirectory(), opened.get().commonDirectory(), opened.get().workTree())) {
        gitDirectories.add(repository.gitDirectory());
        repository.workTree().ifPresent(workTrees::add);
      }
      for (Path gitDirectory : gitDirectories) {
        for (ConfiguredKey key : reader.keys(Optional.of(gitDirectory), " in the repository " + gitDirectory)) {
          keys.putIfAbsent(key.key() + "\0" + key.origin(), key);
        }
      }
      for (Path workTree : workTrees) {
        for (String key : submoduleIgnoreKeys(workTree)) {
          ConfiguredKey ignore = new ConfiguredKey(key, "file:" + workTree.resolve(".gitmodules"));
          keys.putIfAbsent(ignore.key() + "\0" + ignore.origin(), ignore);
        }
      }
    }
    return new Listing(List.copyOf(keys.values()), workTrees);
  }

  /** The entry of {@link GitProgramKeys} a listed key belongs to. */
  private static GitProgramKeys.Key known(String key) {
    return GitProgramKeys.listed(key)
        .orElseThrow(() -> unreadable("the listing found the key " + Printable.quote(key) + ", which the kernel does not know"));
  }

  /**
   * The neutral value of each listed key, and {@code required=false} for each filter, in a stable
   * order. Refused keys have none.
   */
  static Map<String, String> keySettings(List<ConfiguredKey> keys) {
    Map<String, String> settings = new TreeMap<>();
    for (ConfiguredKey configured : keys) {
      String key = configured.key();
      GitProgramKeys.Key entry = known(key);
      if (entry.treatment() != GitProgramKeys.Treatment.WHEN_SET) {
        continue;
      }
      settings.put(key, entry.value());
      int lastDot = key.lastIndexOf('.');
      if (key.startsWith("filter.") && lastDot > "filter".length()) {
        settings.put(key.substring(0, lastDot) + ".required", "false");
      }
    }
    return settings;
  }

  /**
   * {@code submodule.NAME.ignore} for every submodule {@code .gitmodules} names at the top of the
   * work tree {@code workTree}: a {@code .gitmodules} {@code ignore} key is not in the
   * configuration git lists, yet would make git enter the submodule.
   *
   * @throws AuthorityException {@code GIT_CONFIGURATION_UNREADABLE} when a section header that names
   *     a submodule cannot be read, or the file cannot be read
   */
  static List<String> submoduleIgnoreKeys(Path workTree) {
    Path gitmodules = workTree.resolve(".gitmodules");
    if (!Files.isRegularFile(gitmodules, LinkOption.NOFOLLOW_LINKS)) {
      return List.of();
    }
    List<String> keys = new ArrayList<>();
    try {
      if (Files.size(gitmodules) > MAX_GITMODULES_BYTES) {
        throw unreadable(gitmodules + " is larger than " + MAX_GITMODULES_BYTES + " bytes");
      }
      for (String line : Files.readAllLines(gitmodules, StandardCharsets.UTF_8)) {
        String header = line.strip();
        if (!header.startsWith("[") || !header.toLowerCase(Locale.ROOT).replace(" ", "").replace("\t", "").startsWith("[submodule")) {
          continue;
        }
        Matcher quoted = SUBMODULE_HEADER.matcher(header);
        if (!quoted.matches() || quoted.group(1).contains("\\") || quoted.group(1).contains("\"")) {
          throw unreadable(gitmodules + " has a submodule section header the kernel cannot read: " + Printable.quote(header));
        }
        keys.add("submodule." + quoted.group(1) + ".ignore");
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE, gitmodules + " could not be read: " + e.getMessage(), e);
    }
    return keys;
  }

  /** {@code [submodule "NAME"]} (section names ignore case), the only header form the kernel reads; anything else fails closed. */
  private static final Pattern SUBMODULE_HEADER = Pattern.compile("\\[submodule \"([^\"\\\\]+)\"\\]", Pattern.CASE_INSENSITIVE);

  private static Map<String, String> environment(Map<String, String> base, Map<String, String> keySettings) {
    Map<String, String> environment = new TreeMap<>(base);
    environment.keySet().removeIf(name -> name.equals("GIT_CONFIG_PARAMETERS") || name.equals("GIT_CONFIG_COUNT")
        || name.startsWith("GIT_CONFIG_KEY_") || name.startsWith("GIT_CONFIG_VALUE_"));
    environment.putAll(ENVIRONMENT);
    if (!keySettings.isEmpty()) {
      int i = 0;
      for (Map.Entry<String, String> setting : keySettings.entrySet()) {
        environment.put("GIT_CONFIG_KEY_" + i, setting.getKey());
        environment.put("GIT_CONFIG_VALUE_" + i, setting.getValue());
        i++;
      }
      environment.put("GIT_CONFIG_COUNT", Integer.toString(i));
    }
    return environment;
  }

  /**
   * Why the command's own top-level options may not run: one that sets configuration
   * ({@code -c}, {@code --config-env}) or chooses where git finds its commands
   * ({@code --exec-path=DIR}). Top-level options end at the subcommand.
   */
  private static Optional<Decision> optionRefusal(List<String> argv) {
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("argv is empty");
    }
    for (int i = 1; i < argv.size(); i++) {
      String arg = argv.get(i);
      if (!arg.startsWith("-") || arg.equals("--")) {
        return Optional.empty();
      }
      if (arg.startsWith("-c") || arg.startsWith("--config-env")) {
        return Optional.of(Decision.deny(GIT_CONFIGURATION_OVERRIDE, PolicyCodes.LAYER_BUILTIN, "neutralizeGit", i,
            "git option " + Printable.quote(arg) + " (argv[" + i
                + "]) sets configuration that would undo the kernel's neutralization of repository helpers"));
      }
      if (arg.startsWith("--exec-path=")) {
        return Optional.of(Decision.deny(GIT_CONFIGURATION_OVERRIDE, PolicyCodes.LAYER_BUILTIN, "neutralizeGit", i,
            "git option " + Printable.quote(arg) + " (argv[" + i + "]) makes git run its commands from another directory"));
      }
      if (takesValue(arg)) {
        i++;
      }
    }
    return Optional.empty();
  }

  /** Whether the top-level option {@code arg} takes the next argument as its value. */
  private static boolean takesValue(String arg) {
    return arg.equals("-C") || arg.equals("--git-dir") || arg.equals("--work-tree") || arg.equals("--namespace")
        || arg.equals("--super-prefix");
  }

  /** The command's top-level options that choose the repository git opens, in order, with their values. */
  static List<String> locationOptions(List<String> argv) {
    List<String> location = new ArrayList<>();
    for (int i = 1; i < argv.size(); i++) {
      String arg = argv.get(i);
      if (!arg.startsWith("-") || arg.equals("--")) {
        break;
      }
      boolean chooses = arg.equals("-C") || arg.equals("--git-dir") || arg.equals("--work-tree");
      if (chooses && i + 1 < argv.size()) {
        location.add(arg);
        location.add(argv.get(i + 1));
      } else if (chooses || arg.startsWith("--git-dir=") || arg.startsWith("--work-tree=") || arg.equals("--bare")) {
        location.add(arg);
      }
      if (takesValue(arg)) {
        i++;
      }
    }
    return location;
  }

  private static Map<String, String> environmentSettings() {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("GIT_CONFIG_NOSYSTEM", "1");
    environment.put("GIT_PAGER", "cat");
    environment.put("GIT_EDITOR", "false");
    environment.put("GIT_SEQUENCE_EDITOR", "false");
    environment.put("GIT_ASKPASS", "");
    environment.put("GIT_TERMINAL_PROMPT", "0");
    environment.putAll(new TreeMap<>(GitProgramKeys.environment()));
    return java.util.Collections.unmodifiableMap(environment);
  }

  private static AuthorityException unreadable(String message) {
    return new AuthorityException(GIT_CONFIGURATION_UNREADABLE, message);
  }
}
