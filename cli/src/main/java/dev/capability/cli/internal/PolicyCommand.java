package dev.capability.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.core.ExecutionPolicies;
import dev.capability.kernel.core.LoadedPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code capability policy}: write the operator policy from a template, and say which policy the kernel uses. */
@Command(
    name = "policy",
    description = "Write an operator policy from a shipped template, and show which policy exec and check use.",
    subcommands = {PolicyCommand.InitCommand.class, PolicyCommand.PathCommand.class, PolicyCommand.ShowCommand.class})
final class PolicyCommand implements Callable<Integer> {
  /** The templates embedded in the CLI jar, copied at build time from {@code examples/policies/}. */
  static final List<String> TEMPLATES = List.of("readonly-dev");

  private final Console console;

  PolicyCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    console.err().println("capability: policy needs a subcommand: init, path or show; see 'capability policy --help'");
    return ExitCodes.USAGE;
  }

  static String template(String name) {
    if (!TEMPLATES.contains(name)) {
      throw new CapabilityException(CliCodes.POLICY_TEMPLATE_UNKNOWN, "no policy template '" + name + "'; the templates are " + TEMPLATES);
    }
    try (InputStream in = PolicyCommand.class.getResourceAsStream("policies/" + name + ".json")) {
      if (in == null) {
        throw new IllegalStateException("the CLI jar lacks its policy template " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code capability policy init}. */
  @Command(
      name = "init",
      description = "Write the operator policy to $${XDG_CONFIG_HOME:-~/.config}/capability/policy.json, owned by you, mode 600,"
          + " in directories only you can write; print its path. An existing file is kept unless --force.")
  static final class InitCommand implements Callable<Integer> {
    private final Console console;

    @Option(names = "--from", paramLabel = "TEMPLATE", defaultValue = "readonly-dev",
        description = "The template: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).", completionCandidates = Templates.class)
    String from;

    @Option(names = "--force", description = "Replace an existing policy file; the old one is kept as policy.json.bak.")
    boolean force;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    InitCommand(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      Path written;
      Optional<Path> backup;
      try {
        String text = template(from);
        Path file = PolicyLocation.defaultFile(console.environment());
        Path directory = createPrivateDirectories(file.getParent()).toRealPath();
        written = directory.resolve(file.getFileName());
        backup = write(written, text);
      } catch (IOException e) {
        throw new CapabilityException(CliCodes.POLICY_WRITE_FAILED, "cannot write the policy: " + e);
      }
      if (json) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("path", written.toString());
        view.put("template", from);
        view.put("backup", backup.map(Path::toString).orElse(null));
        console.json(view);
      } else {
        backup.ifPresent(previous -> console.err().println("capability: the previous policy is kept at " + previous));
        console.out().println(written);
      }
      return ExitCodes.OK;
    }

    /**
     * Writes {@code text} beside {@code target} with mode 600, has the kernel load that copy (so
     * nothing is installed that the kernel would refuse), then puts it in place: without --force by
     * a hard link, which fails rather than replace a file that appeared meanwhile.
     */
    private Optional<Path> write(Path target, String text) throws IOException {
      if (!force && Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new CapabilityException(CliCodes.POLICY_EXISTS, target + " exists; it is kept. Pass --force to replace it (the old one is"
            + " kept as " + target.getFileName() + ".bak)");
      }
      Path staged = Files.createTempFile(target.getParent(), ".policy-", ".json",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      try {
        Files.writeString(staged, text);
        ExecutionPolicies.load(staged, null);
        if (!force) {
          try {
            Files.createLink(target, staged);
          } catch (FileAlreadyExistsException e) {
            throw new CapabilityException(CliCodes.POLICY_EXISTS, target + " exists; it is kept. Pass --force to replace it");
          }
          return Optional.empty();
        }
        Optional<Path> backup = Optional.empty();
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
          Path previous = target.resolveSibling(target.getFileName() + ".bak");
          Files.copy(target, previous, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES,
              LinkOption.NOFOLLOW_LINKS);
          backup = Optional.of(previous);
        }
        Files.move(staged, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return backup;
      } finally {
        Files.deleteIfExists(staged);
      }
    }

    /** Creates the missing directories with mode 700; existing ones are left as they are and checked by the kernel's load. */
    private static Path createPrivateDirectories(Path directory) throws IOException {
      if (Files.isDirectory(directory)) {
        return directory;
      }
      createPrivateDirectories(directory.getParent());
      try {
        Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (FileAlreadyExistsException e) {
        if (!Files.isDirectory(directory)) {
          throw e;
        }
      }
      return directory;
    }
  }

  /** The template names, for help and completion. */
  static final class Templates implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return TEMPLATES.iterator();
    }
  }

  /** {@code capability policy path}. */
  @Command(name = "path", description = "Print the policy file exec and check would use, and where that choice came from.")
  static final class PathCommand implements Callable<Integer> {
    private final Console console;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    PathCommand(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      PolicyLocation location = PolicyLocation.resolve(Optional.empty(), console.environment());
      if (json) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("path", location.file().toString());
        view.put("origin", location.origin());
        console.json(view);
      } else {
        console.out().println(location.file() + " (" + location.origin() + ")");
      }
      return ExitCodes.OK;
    }
  }

  private static Object tree(String json) {
    try {
      return new ObjectMapper().readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the policy's normal form is not JSON", e);
    }
  }

  /** {@code capability policy show}. */
  @Command(name = "show", description = "Load the policy exec and check would use, as they load it, and print its path, hash and text.")
  static final class ShowCommand implements Callable<Integer> {
    private final Console console;

    @Option(names = "--policy", paramLabel = "FILE", description = "This policy file instead.")
    Path policy;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    ShowCommand(Console console) {
      this.console = console;
    }

    @Override
    public Integer call() {
      PolicyLocation location = PolicyLocation.resolve(Optional.ofNullable(policy), console.environment());
      LoadedPolicy loaded = ExecutionPolicies.load(location.file(), null);
      String text = ExecutionPolicies.toJson(loaded.policy());
      if (json) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("path", loaded.source());
        view.put("origin", location.origin());
        view.put("hash", loaded.hash());
        view.put("policy", tree(text));
        console.json(view);
      } else {
        console.out().println("# " + loaded.source() + " (" + location.origin() + "), sha256 " + loaded.hash());
        console.out().println(text);
      }
      return ExitCodes.OK;
    }
  }
}
