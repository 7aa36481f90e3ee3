package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.GIT_CONFIGURATION_OVERRIDE;
import static dev.capability.kernel.api.authority.AuthorityCodes.GIT_CONFIGURATION_UNREADABLE;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.PolicyCodes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs git with the helpers that repository configuration can start switched off. An allowed
 * {@code git status} reads {@code .git/config}, and through it may start a file-system monitor,
 * a clean filter, a pager or a credential helper: code the operator never allowed. Neutralizing
 * is on unless the policy says {@code "neutralizeGit": false}.
 *
 * <p>Fixed settings go on the command line ({@link #SETTINGS}, after {@code --no-pager}). Drivers
 * and helpers that live under a name the repository chooses ({@code filter.NAME.clean},
 * {@code diff.NAME.textconv}, aliases, ...) are found by listing the configuration first
 * ({@link #configuredDrivers}), and each is emptied through {@code GIT_CONFIG_COUNT}, whose keys
 * need no quoting. An emptied driver either does nothing (filters) or makes the git command fail
 * (diff and merge drivers); it never runs.
 *
 * <p>A command that sets configuration itself before its subcommand ({@code git -c ...},
 * {@code --config-env}) is refused: its settings would come after the kernel's and win.
 *
 * <p>The sandbox runs as a uid that does not own the repository, and git (since 2.35.2) refuses to
 * work in such a repository ("dubious ownership"), because its configuration could start programs.
 * With that configuration neutralized, the kernel marks exactly the repository the request names
 * (and the working directory, when it is another directory inside it) safe with
 * {@code -c safe.directory=PATH}, which git honours from the command line as protected
 * configuration. The value is always a real absolute path, never {@code *}, never taken from the
 * command or its environment, and it is recorded with the other settings.
 */
public final class GitNeutralizer {
  private GitNeutralizer() {}

  /** The configuration key that lets git work in a repository another uid owns. */
  public static final String SAFE_DIRECTORY = "safe.directory";

  /** The settings every neutralized git command gets with {@code -c}, in order. */
  public static final List<String> SETTINGS = List.of(
      "core.fsmonitor=false",
      // Nobody can create files under /dev/null, unlike under an empty directory the command could write.
      "core.hooksPath=/dev/null",
      "core.pager=cat",
      "core.editor=false",
      "sequence.editor=false",
      "core.askPass=",
      "credential.helper=",
      "core.sshCommand=ssh",
      "protocol.ext.allow=never",
      // A submodule is a repository of its own whose drivers the listing never sees: git must not enter it.
      "diff.ignoreSubmodules=all",
      "submodule.recurse=false",
      "gpg.program=gpg",
      "gpg.ssh.program=ssh-keygen",
      "gpg.x509.program=gpgsm");

  /**
   * Environment variables every neutralized git command gets: no system configuration, and the
   * variables that would override the pager, editors and askpass helper set to harmless values.
   */
  public static final Map<String, String> ENVIRONMENT = orderedMap(
      "GIT_CONFIG_NOSYSTEM", "1",
      "GIT_PAGER", "cat",
      "GIT_EDITOR", "false",
      "GIT_SEQUENCE_EDITOR", "false",
      "GIT_ASKPASS", "",
      "GIT_TERMINAL_PROMPT", "0");

  /**
   * The configuration keys, as an extended regular expression for {@code git config --get-regexp},
   * whose values name programs git runs under a name the repository chooses.
   */
  static final String DRIVER_KEYS = "^(filter\\..*\\.(clean|smudge|process)|diff\\.external|diff\\..*\\.(textconv|command)|merge\\..*\\.driver"
      + "|remote\\..*\\.(uploadpack|receivepack)|credential\\..*\\.helper|alias\\..*|(diff|merge)tool\\..*\\.cmd"
      + "|submodule\\..*\\.(update|ignore))$";

  /** How long listing the configuration may take. */
  static final long LIST_TIMEOUT_SECONDS = 10;
  /** The most bytes of configuration key names read. */
  static final long MAX_LIST_BYTES = 1L << 20;

  /**
   * A git command ready to launch, or the reason it may not.
   *
   * @param decision allowed, or refused with {@code GIT_CONFIGURATION_OVERRIDE} at the offending argument
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

  /** Whether {@code rule} runs git: its bare name, or the file name of its path, is {@code git}. */
  public static boolean appliesTo(ExecutableRule rule) {
    return rule.name().map("git"::equals)
        .orElseGet(() -> rule.path().map(path -> path.getFileName() != null && path.getFileName().toString().equals("git")).orElse(false));
  }

  /**
   * Neutralizes the git command {@code argv}.
   *
   * @param environment the command's environment; configuration passed through it
   *     ({@code GIT_CONFIG_PARAMETERS}, {@code GIT_CONFIG_COUNT} and its keys and values) is replaced
   * @param drivers configuration keys found by {@link #configuredDrivers}
   * @param safeDirectories the directories git may work in although another uid owns them, from
   *     {@link #safeDirectories}
   */
  public static Neutralized neutralize(
      List<String> argv, Map<String, String> environment, List<String> drivers, List<Path> safeDirectories) {
    Objects.requireNonNull(argv, "argv");
    Objects.requireNonNull(environment, "environment");
    Objects.requireNonNull(drivers, "drivers");
    Objects.requireNonNull(safeDirectories, "safeDirectories");
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("argv is empty");
    }
    int override = configurationOverride(argv);
    if (override >= 0) {
      return new Neutralized(Decision.deny(GIT_CONFIGURATION_OVERRIDE, PolicyCodes.LAYER_BUILTIN, "neutralizeGit", override,
          "git option " + Printable.quote(argv.get(override)) + " (argv[" + override
              + "]) sets configuration that would undo the kernel's neutralization of repository helpers"),
          List.of(), environment, List.of());
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
    Map<String, String> driverSettings = driverSettings(drivers);
    List<String> configuration = new ArrayList<>(settings);
    driverSettings.forEach((key, value) -> configuration.add(key + "=" + value));
    return new Neutralized(Decision.allow(PolicyCodes.LAYER_BUILTIN, "neutralizeGit"), neutralized,
        environment(environment, driverSettings), configuration);
  }

  /**
   * The directories a neutralized git command may work in although another uid owns them: the
   * repository, and the working directory when it is another directory inside it. Nothing without
   * a repository. A path whose last name is {@code *} is left out, because newer git reads
   * {@code DIR/*} as every directory below {@code DIR}.
   *
   * @param repository the request's repository, a real absolute path
   * @param workingDirectory the request's working directory, a real absolute path
   */
  public static List<Path> safeDirectories(Optional<Path> repository, Path workingDirectory) {
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    if (repository.isEmpty()) {
      return List.of();
    }
    Set<Path> directories = new LinkedHashSet<>();
    directories.add(repository.get());
    if (workingDirectory.startsWith(repository.get())) {
      directories.add(workingDirectory);
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
   * The configuration keys that name programs under repository-chosen names, as git sees them
   * from {@code workingDirectory} with {@code environment}, includes followed. Lists with the
   * fixed neutralization and the same safe directories in place, so listing starts no helper
   * either and reads the configuration of a repository another uid owns (without them git would
   * silently skip that repository's configuration and list nothing). Adds
   * {@code submodule.NAME.ignore} for every submodule {@code .gitmodules} names
   * ({@link #submoduleIgnoreKeys}), so that no submodule's own drivers run.
   *
   * @param git the git executable the command will run
   * @param safeDirectories the safe directories the command will run with
   * @throws AuthorityException {@code GIT_CONFIGURATION_UNREADABLE} when git fails, hangs or lists too much
   */
  public static List<String> configuredDrivers(
      Path git, Path workingDirectory, Map<String, String> environment, List<Path> safeDirectories) {
    List<String> argv = new ArrayList<>(List.of(git.toString(), "--no-pager"));
    for (String setting : settings(safeDirectories)) {
      argv.add("-c");
      argv.add(setting);
    }
    argv.addAll(List.of("config", "--null", "--name-only", "--get-regexp", DRIVER_KEYS));
    Path output = null;
    try {
      output = Files.createTempFile("capability-git-config", ".lst");
      ProcessBuilder builder = new ProcessBuilder(argv)
          .directory(workingDirectory.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
          .redirectOutput(output.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD);
      builder.environment().clear();
      builder.environment().putAll(environment(environment, Map.of()));
      Process process = builder.start();
      if (!process.waitFor(LIST_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw unreadable("git config did not finish within " + LIST_TIMEOUT_SECONDS + " s");
      }
      int exit = process.exitValue();
      if (exit != 0 && exit != 1) {
        throw unreadable("git config exited with " + exit);
      }
      Set<String> keys = new LinkedHashSet<>(exit == 1 ? List.of() : parseKeys(output));
      keys.addAll(submoduleIgnoreKeys(workingDirectory));
      return List.copyOf(keys);
    } catch (IOException e) {
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE, "git's configuration could not be listed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE, "interrupted while listing git's configuration", e);
    } finally {
      deleteQuietly(output);
    }
  }

  private static List<String> parseKeys(Path output) throws IOException {
    if (Files.size(output) > MAX_LIST_BYTES) {
      throw unreadable("git config listed more than " + MAX_LIST_BYTES + " bytes of keys");
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(output)) {
      bytes = in.readNBytes((int) MAX_LIST_BYTES + 1);
    }
    Set<String> keys = new LinkedHashSet<>();
    for (String key : new String(bytes, StandardCharsets.UTF_8).split("\0")) {
      if (!key.isEmpty()) {
        keys.add(key);
      }
    }
    return List.copyOf(keys);
  }

  /** The neutral value of each driver key, and {@code required=false} for each filter, in a stable order. */
  static Map<String, String> driverSettings(List<String> drivers) {
    Map<String, String> settings = new TreeMap<>();
    for (String key : drivers) {
      int firstDot = key.indexOf('.');
      int lastDot = key.lastIndexOf('.');
      if (firstDot < 0) {
        continue;
      }
      String section = key.substring(0, firstDot);
      String variable = key.substring(lastDot + 1);
      settings.put(key, section.equals("submodule") ? submoduleSetting(variable) : "");
      if (section.equals("filter") && lastDot > firstDot) {
        settings.put(key.substring(0, lastDot) + ".required", "false");
      }
    }
    return settings;
  }

  /**
   * What a submodule's {@code update} or {@code ignore} key is set to: never run an update
   * command, and never look inside (a per-submodule {@code ignore} would override
   * {@code diff.ignoreSubmodules}).
   */
  private static String submoduleSetting(String variable) {
    return variable.equals("update") ? "none" : "all";
  }

  /**
   * {@code submodule.NAME.ignore} for every submodule {@code .gitmodules} names at the top of the
   * work tree containing {@code workingDirectory}: a {@code .gitmodules} {@code ignore} key is not
   * in the configuration git lists, yet would make git enter the submodule.
   *
   * @throws AuthorityException {@code GIT_CONFIGURATION_UNREADABLE} when a section header that names
   *     a submodule cannot be read, or the file cannot be read
   */
  static List<String> submoduleIgnoreKeys(Path workingDirectory) {
    Path top = workingDirectory.toAbsolutePath();
    while (top != null && !Files.exists(top.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
      top = top.getParent();
    }
    if (top == null || !Files.isRegularFile(top.resolve(".gitmodules"), LinkOption.NOFOLLOW_LINKS)) {
      return List.of();
    }
    List<String> keys = new ArrayList<>();
    try {
      if (Files.size(top.resolve(".gitmodules")) > MAX_LIST_BYTES) {
        throw unreadable(".gitmodules is larger than " + MAX_LIST_BYTES + " bytes");
      }
      for (String line : Files.readAllLines(top.resolve(".gitmodules"), StandardCharsets.UTF_8)) {
        String header = line.strip();
        if (!header.startsWith("[") || !header.toLowerCase(java.util.Locale.ROOT).replace(" ", "").replace("\t", "").startsWith("[submodule")) {
          continue;
        }
        java.util.regex.Matcher quoted = SUBMODULE_HEADER.matcher(header);
        if (!quoted.matches() || quoted.group(1).contains("\\") || quoted.group(1).contains("\"")) {
          throw unreadable(".gitmodules has a submodule section header the kernel cannot read: " + Printable.quote(header));
        }
        keys.add("submodule." + quoted.group(1) + ".ignore");
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE, ".gitmodules could not be read: " + e.getMessage(), e);
    }
    return keys;
  }

  /** {@code [submodule "NAME"]} (section names ignore case), the only header form the kernel reads; anything else fails closed. */
  private static final java.util.regex.Pattern SUBMODULE_HEADER = java.util.regex.Pattern.compile("\\[submodule \"([^\"\\\\]+)\"\\]", java.util.regex.Pattern.CASE_INSENSITIVE);

  private static Map<String, String> environment(Map<String, String> base, Map<String, String> driverSettings) {
    Map<String, String> environment = new TreeMap<>(base);
    environment.keySet().removeIf(name -> name.equals("GIT_CONFIG_PARAMETERS") || name.equals("GIT_CONFIG_COUNT")
        || name.startsWith("GIT_CONFIG_KEY_") || name.startsWith("GIT_CONFIG_VALUE_"));
    environment.putAll(ENVIRONMENT);
    if (!driverSettings.isEmpty()) {
      int i = 0;
      for (Map.Entry<String, String> setting : driverSettings.entrySet()) {
        environment.put("GIT_CONFIG_KEY_" + i, setting.getKey());
        environment.put("GIT_CONFIG_VALUE_" + i, setting.getValue());
        i++;
      }
      environment.put("GIT_CONFIG_COUNT", Integer.toString(i));
    }
    return environment;
  }

  /** The index of a top-level option that sets configuration, or -1. Top-level options end at the subcommand. */
  private static int configurationOverride(List<String> argv) {
    for (int i = 1; i < argv.size(); i++) {
      String arg = argv.get(i);
      if (!arg.startsWith("-") || arg.equals("--")) {
        return -1;
      }
      if (arg.startsWith("-c") || arg.startsWith("--config-env")) {
        return i;
      }
      if (arg.equals("-C") || arg.equals("--git-dir") || arg.equals("--work-tree") || arg.equals("--namespace")
          || arg.equals("--super-prefix")) {
        i++;
      }
    }
    return -1;
  }

  private static AuthorityException unreadable(String message) {
    return new AuthorityException(GIT_CONFIGURATION_UNREADABLE, message);
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // A leftover list of key names, without values, in the temporary directory reveals no secret.
      }
    }
  }

  private static Map<String, String> orderedMap(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(map);
  }
}
