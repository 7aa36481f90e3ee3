package dev.capability.cli.internal;

import dev.capability.cli.Main;
import dev.capability.kernel.api.backend.BackendProvider;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.plugin.Plugins;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The training run for the CLI's class data sharing archives (docs/cli.md, "Start-up"). For a
 * short command named by its one argument ({@code parse}, {@code check}, {@code help},
 * {@code completion} or {@code policy}) the launchers run this class in a JVM of its own, with
 * {@code -XX:DumpLoadedClassList}, after the user's command has ended, and then write the classes
 * it loaded into a static archive ({@code -Xshare:dump}), so that the archive holds the classes
 * that command loads, from {@link Main} on.
 *
 * <p>It runs fixed command lines only, never the user's (which must not run twice), in a private
 * temporary directory ({@link Workspace}) that it removes afterwards: the shipped
 * {@code readonly-dev} template as the operator policy, a Git repository of its own, and a backend
 * probe cache of its own. {@code check} decides a refusal and an allowed {@code git status} in that
 * repository, along the path of a real check (the Git neutralization, the backend choice from the
 * probe cache), without a ledger. Nothing it runs probes a backend or launches anything: the
 * backend choice is answered from records the training writes into its own cache, and a backend
 * they do not answer for is unavailable, not probed ({@link CachedBackendProvider#withoutLiveProbes}).
 * The commands read no stdin, their output is discarded, and their environment names only the
 * private directory: no file of the user's (policy, repository, ledger, probe cache, Git
 * configuration) is read or written.
 */
public final class ClassDataTraining {
  private ClassDataTraining() {}

  public static void main(String[] args) throws IOException, ClassNotFoundException {
    // The user's command starts in Main, which reads its arguments through ProcessArguments: both
    // are loaded here as well, so that the class list names them.
    Class.forName(Main.class.getName(), false, ClassDataTraining.class.getClassLoader());
    ProcessArguments arguments = ProcessArguments.ofThisProcess(args);
    if (arguments.arguments().size() != 1) {
      throw new IllegalArgumentException("usage: ClassDataTraining parse|check|help|completion|policy");
    }
    String command = arguments.arguments().get(0);
    // Mode 700, as the policy loader requires of the policy's directories.
    Workspace workspace = Workspace.create(Files.createTempDirectory("capability-cds-training"), command);
    try {
      for (List<String> commandLine : commandLines(command, workspace.repository())) {
        workspace.run(commandLine);
      }
    } finally {
      workspace.delete();
    }
  }

  /**
   * The command lines that train the archive of {@code command}; those of {@code check} name
   * {@code repository} (the training's own) as the repository, and keep no ledger.
   */
  static List<List<String>> commandLines(String command, Path repository) {
    return switch (command) {
      // Not --json: the JSON writer's classes would triple the archive (more to hash on every call,
      // and 5 MiB more resident) for a few milliseconds less; they load from the jars when needed.
      case "parse" -> List.of(List.of("parse", "ls -l"));
      case "check" -> List.of(
          List.of("check", "--no-ledger", "--repo", repository.toString(), "--", "rm", "-rf", "/"),
          List.of("check", "--json", "--no-ledger", "--repo", repository.toString(), "--", "rm", "-rf", "/"),
          List.of("check", "--no-ledger", "--repo", repository.toString(), "--", "git", "status"),
          List.of("check", "--json", "--no-ledger", "--repo", repository.toString(), "--", "git", "status"));
      case "help" -> List.of(List.of("help"), List.of("help", "check"));
      case "completion" -> List.of(List.of("completion", "bash"));
      case "policy" -> List.of(List.of("policy", "path"), List.of("policy", "show"), List.of("policy", "show", "--json"));
      default -> throw new IllegalArgumentException("no training for '" + command + "'");
    };
  }

  /**
   * The training's private directory: {@code capability/policy.json} (the {@code readonly-dev}
   * template) as the configuration directory; for {@code check}, also {@code repository}, a new
   * Git repository (the files by which git recognises one, written here without starting git), and
   * {@code cache}, the probe cache, in which each backend whose identity the CLI can read ({@link
   * BackendIdentity}) is recorded as available with every isolation capability, so that the choice
   * is made, and made from the cache, whatever the policy requires. The records are the training's
   * alone: they are never where a real decision reads.
   */
  record Workspace(Path home) {
    /**
     * Fills {@code home}, an empty directory of this user's, mode 700, for {@code command}. Only
     * {@code check} gets the repository and the records: the other archives would otherwise hold
     * the backend providers' classes, which their commands never load.
     */
    static Workspace create(Path home, String command) throws IOException {
      Workspace workspace = new Workspace(home);
      Path configuration = Files.createDirectory(home.resolve("capability"));
      Files.writeString(configuration.resolve("policy.json"), PolicyCommand.template("readonly-dev"));
      if (command.equals("check")) {
        workspace.addRepositoryAndBackendRecords();
      }
      return workspace;
    }

    private void addRepositoryAndBackendRecords() throws IOException {
      Path git = Files.createDirectories(repository().resolve(".git"));
      Files.writeString(git.resolve("HEAD"), "ref: refs/heads/main\n");
      Files.writeString(git.resolve("config"), "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n");
      Files.createDirectories(git.resolve("objects"));
      Files.createDirectories(git.resolve("refs").resolve("heads"));
      Files.createDirectories(git.resolve("refs").resolve("tags"));
      Files.writeString(repository().resolve("README.md"), "The class data training's repository.\n");
      BackendProbeCache cache = BackendProbeCache.forUser(environment(), notice -> {});
      for (BackendProvider provider : Plugins.load(BackendProvider.class, BackendProvider::id, ClassDataTraining.class.getClassLoader()).values()) {
        BackendIdentity.of(provider.id(), provider.getClass(), environment()).ifPresent(identity -> cache.write(new BackendProbe(
            provider.id(), identity, true, "", EnumSet.allOf(IsolationCapability.class), Map.of(), Map.of())));
      }
    }

    Path repository() {
      return home.resolve("repository");
    }

    /** The environment of every training command: only the private directory and a fixed PATH. */
    Map<String, String> environment() {
      return Map.of(
          "PATH", "/usr/local/bin:/usr/bin:/bin",
          "HOME", home.toString(),
          "XDG_CONFIG_HOME", home.toString(),
          "XDG_CACHE_HOME", home.resolve("cache").toString());
    }

    /** Runs {@code commandLine} here, no backend probed live; returns its exit code. */
    int run(List<String> commandLine) {
      PrintStream discarded = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
      CapabilityCli cli = new CapabilityCli(InputStream.nullInputStream(), discarded, discarded, environment(), Set.of());
      return CachedBackendProvider.withoutLiveProbes(() -> cli.run(commandLine.toArray(String[]::new)));
    }

    /** Removes the directory and everything in it (nothing in it is a link to follow). */
    void delete() throws IOException {
      try (Stream<Path> files = Files.walk(home)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
  }
}
