package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.GIT_CONFIGURATION_UNREADABLE;

import dev.capability.kernel.api.authority.AuthorityException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.eclipse.jgit.errors.ConfigInvalidException;
import org.eclipse.jgit.lib.Config;

/**
 * Reads git's configuration the way git does, in this JVM, without starting git: which repository
 * a command opens ({@link #opened}), and which keys of {@link GitProgramKeys} the files git reads
 * for it set ({@link #keys}). JGit parses each file ({@link Config#fromText}); which files are read,
 * and the includes, are followed here, because a JGit {@code Repository} reads the host's
 * configuration through the JVM's own environment and may start {@code git} to find the system
 * configuration.
 *
 * <p>The files are those {@code git config --get-regexp} reads with the environment the kernel
 * launches git with ({@code GIT_CONFIG_NOSYSTEM=1}, the command's configuration variables
 * removed): the global configuration ({@code GIT_CONFIG_GLOBAL}, or
 * {@code $XDG_CONFIG_HOME/git/config} (or {@code $HOME/.config/git/config}) and
 * {@code $HOME/.gitconfig}), the repository's {@code config} in its common directory, and its
 * {@code config.worktree} when {@code extensions.worktreeConfig} is on; every {@code include.path}
 * and {@code includeIf.<condition>.path} followed, {@value #MAX_INCLUDE_DEPTH} levels deep as git
 * does. A conditional include is read whatever its condition: a key in it is then neutralized (or
 * refuses the command) even where git would not have applied it, never missed where it would. A
 * form the kernel cannot resolve as git would ({@code ~user/}, {@code %(prefix)/}, a relative path
 * where git would take the process's directory) fails with {@code GIT_CONFIGURATION_UNREADABLE}
 * rather than be skipped.
 */
final class GitConfigurationReader {
  /** How deep includes nest, as git allows. */
  static final int MAX_INCLUDE_DEPTH = 10;
  /** The most bytes of one configuration file. */
  static final int MAX_FILE_BYTES = 1 << 20;
  /** The most configuration files one reader reads, includes and repeated reads counted. */
  static final int MAX_FILES = 4096;

  /** The one file that is not a regular file git configuration is often pointed at ({@code GIT_CONFIG_GLOBAL=/dev/null}). */
  private static final Path DEV_NULL = Path.of("/dev/null");
  private static final Pattern HEX_OBJECT_ID = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
  private static final Pattern LISTED = Pattern.compile(GitProgramKeys.listingPattern(), Pattern.DOTALL);

  private final Map<String, String> environment;
  private int filesRead;

  /**
   * A reader for git run with {@code environment}.
   *
   * @param environment the environment git would run with, after the kernel's changes
   */
  GitConfigurationReader(Map<String, String> environment) {
    this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
  }

  /**
   * A repository git opens: its git directory, common directory and work tree, real paths.
   *
   * @param workTree absent for a bare repository, or when git starts inside the git directory
   */
  record Opened(Path gitDirectory, Path commonDirectory, Optional<Path> workTree) {
    Opened {
      Objects.requireNonNull(gitDirectory, "gitDirectory");
      Objects.requireNonNull(commonDirectory, "commonDirectory");
      Objects.requireNonNull(workTree, "workTree");
    }
  }

  /**
   * The repository git opens when started in {@code workingDirectory} with the top-level options
   * {@code location} ({@code -C}, {@code --git-dir}, {@code --work-tree}, {@code --bare}, as
   * {@link GitNeutralizer#locationOptions} returns them), or empty outside any repository. Follows
   * git's setup: {@code GIT_DIR} (or {@code --git-dir}) names the git directory, else git searches
   * upwards from the directory for {@code .git} or a bare repository, stopping at
   * {@code GIT_CEILING_DIRECTORIES} and, unless {@code GIT_DISCOVERY_ACROSS_FILESYSTEM} is on, at a
   * file-system boundary; the work tree is {@code GIT_WORK_TREE} (or {@code --work-tree}),
   * {@code core.worktree}, none for {@code core.bare} or a bare repository, else the directory
   * holding {@code .git} (or, with an explicit git directory, the directory git starts in).
   *
   * @throws AuthorityException {@code GIT_CONFIGURATION_UNREADABLE} where git would stop with an
   *     error (a {@code -C} that is not a directory, a named git directory that is not one), or
   *     {@code GIT_DIRECTORY_INVALID} for a {@code .git} file that leads nowhere
   */
  Optional<Opened> opened(List<String> location, Path workingDirectory) {
    Path directory = realDirectory(workingDirectory, "the working directory");
    String gitDirectory = environment.get("GIT_DIR");
    String workTree = environment.get("GIT_WORK_TREE");
    boolean bare = false;
    for (int i = 0; i < location.size(); i++) {
      String option = location.get(i);
      if (option.equals("-C") || option.equals("--git-dir") || option.equals("--work-tree")) {
        if (i + 1 >= location.size()) {
          throw unreadable("git option " + Printable.quote(option) + " has no value");
        }
        String value = location.get(++i);
        if (option.equals("-C")) {
          directory = value.isEmpty() ? directory : realDirectory(resolve(directory, value, "git -C"), "git -C " + Printable.quote(value));
        } else if (option.equals("--git-dir")) {
          gitDirectory = value;
        } else {
          workTree = value;
        }
      } else if (option.startsWith("--git-dir=")) {
        gitDirectory = option.substring("--git-dir=".length());
      } else if (option.startsWith("--work-tree=")) {
        workTree = option.substring("--work-tree=".length());
      } else if (option.equals("--bare")) {
        bare = true;
        if (gitDirectory == null) {
          // git --bare sets GIT_DIR to the directory it is in then, unless it is set already.
          gitDirectory = directory.toString();
        }
      }
    }
    Optional<Path> explicitWorkTree = workTree == null
        ? Optional.empty()
        : Optional.of(realDirectory(resolve(directory, workTree, "the work tree"), "the work tree " + Printable.quote(workTree)));
    if (gitDirectory != null) {
      Path named = resolve(directory, gitDirectory, "the git directory");
      Path git = Files.isRegularFile(named) ? gitFileTarget(named) : named;
      if (!isGitDirectory(git)) {
        throw unreadable("git would stop: " + Printable.quote(gitDirectory) + " is not a git repository");
      }
      Path real = realDirectory(git, "the git directory " + Printable.quote(gitDirectory));
      return Optional.of(opened(real, bare ? Optional.empty() : Optional.of(directory), explicitWorkTree, bare));
    }
    return discover(directory, explicitWorkTree);
  }

  /** The repository git finds searching upwards from {@code start}. */
  private Optional<Opened> discover(Path start, Optional<Path> explicitWorkTree) {
    Optional<Path> ceiling = ceiling(start);
    boolean acrossFileSystems = isTrue(environment.get("GIT_DISCOVERY_ACROSS_FILESYSTEM"));
    Object device = device(start);
    Path directory = start;
    while (true) {
      Path dotGit = directory.resolve(".git");
      if (Files.isRegularFile(dotGit)) {
        Path git = gitFileTarget(dotGit);
        if (!isGitDirectory(git)) {
          throw unreadable("git would stop: " + dotGit + " names " + git + ", which is not a git repository");
        }
        return Optional.of(opened(realDirectory(git, dotGit.toString()), Optional.of(directory), explicitWorkTree, false));
      }
      if (Files.isDirectory(dotGit) && isGitDirectory(dotGit)) {
        return Optional.of(opened(realDirectory(dotGit, dotGit.toString()), Optional.of(directory), explicitWorkTree, false));
      }
      if (isGitDirectory(directory)) {
        return Optional.of(opened(directory, Optional.empty(), explicitWorkTree, true));
      }
      Path parent = directory.getParent();
      if (parent == null || ceiling.map(c -> !parent.startsWith(c) || parent.equals(c)).orElse(false)) {
        return Optional.empty();
      }
      if (!acrossFileSystems && !device.equals(device(parent))) {
        return Optional.empty();
      }
      directory = parent;
    }
  }

  /**
   * The repository with git directory {@code gitDirectory}: its work tree is {@code explicitWorkTree}
   * if given, else {@code core.worktree}, else none when bare ({@code bare} or {@code core.bare}),
   * else {@code defaultWorkTree}.
   */
  private Opened opened(Path gitDirectory, Optional<Path> defaultWorkTree, Optional<Path> explicitWorkTree, boolean bare) {
    Path common = commonDirectory(gitDirectory);
    Config repositoryConfig = parse(common.resolve("config"), false);
    Optional<Path> workTree;
    if (explicitWorkTree.isPresent()) {
      workTree = explicitWorkTree;
    } else if (repositoryConfig.getString("core", null, "worktree") != null) {
      String configured = repositoryConfig.getString("core", null, "worktree");
      workTree = Optional.of(realDirectory(resolve(gitDirectory, configured, "core.worktree"), "core.worktree " + Printable.quote(configured)));
    } else if (bare || booleanOf(repositoryConfig, "core", "bare", common.resolve("config"))) {
      workTree = Optional.empty();
    } else {
      workTree = defaultWorkTree;
    }
    return new Opened(gitDirectory, common, workTree);
  }

  /**
   * The keys of {@link GitProgramKeys} set in the global configuration and, when
   * {@code gitDirectory} is present, in that repository's configuration; each origin is
   * {@code file:PATH} followed by {@code where}.
   *
   * @throws AuthorityException {@code GIT_CONFIGURATION_UNREADABLE} for a file that cannot be
   *     read or parsed, an include the kernel cannot resolve, or beyond a bound
   */
  List<GitNeutralizer.ConfiguredKey> keys(Optional<Path> gitDirectory, String where) {
    List<GitNeutralizer.ConfiguredKey> keys = new ArrayList<>();
    for (Path file : globalFiles()) {
      if (Files.isReadable(file)) {
        collect(file, 0, where, keys);
      }
    }
    if (gitDirectory.isPresent()) {
      Path common = commonDirectory(gitDirectory.get());
      Path config = common.resolve("config");
      if (Files.exists(config)) {
        collect(config, 0, where, keys);
      }
      Path worktreeConfig = gitDirectory.get().resolve("config.worktree");
      if (Files.exists(config) && booleanOf(parse(config, false), "extensions", "worktreeConfig", config) && Files.exists(worktreeConfig)) {
        collect(worktreeConfig, 0, where, keys);
      }
    }
    return keys;
  }

  /** The global files git reads, in its order: only {@code GIT_CONFIG_GLOBAL} when set, else the XDG file and {@code ~/.gitconfig}. */
  private List<Path> globalFiles() {
    String global = environment.get("GIT_CONFIG_GLOBAL");
    if (global != null) {
      return global.isEmpty() ? List.of() : List.of(absolute(global, "GIT_CONFIG_GLOBAL"));
    }
    List<Path> files = new ArrayList<>();
    String home = environment.get("HOME");
    String xdg = environment.get("XDG_CONFIG_HOME");
    if (xdg != null && !xdg.isEmpty()) {
      files.add(absolute(xdg + "/git/config", "XDG_CONFIG_HOME"));
    } else if (home != null) {
      files.add(absolute(home + "/.config/git/config", "HOME"));
    }
    if (home != null) {
      files.add(absolute(home + "/.gitconfig", "HOME"));
    }
    return files;
  }

  /** Adds the listed keys {@code file} sets, and those of the files it includes, {@code depth} includes deep. */
  private void collect(Path file, int depth, String where, List<GitNeutralizer.ConfiguredKey> keys) {
    Config config = parse(file, true);
    String origin = "file:" + file + where;
    for (String section : config.getSections()) {
      List<String> subsections = new ArrayList<>();
      subsections.add(null);
      subsections.addAll(config.getSubsections(section));
      for (String subsection : subsections) {
        for (String name : config.getNames(section, subsection)) {
          String key = section.toLowerCase(Locale.ROOT) + (subsection == null ? "" : "." + subsection) + "." + name.toLowerCase(Locale.ROOT);
          if (LISTED.matcher(key).matches()) {
            keys.add(new GitNeutralizer.ConfiguredKey(key, origin));
          }
        }
      }
    }
    List<String> includes = new ArrayList<>(includePaths(config, "include", null, file));
    for (String condition : new TreeSet<>(config.getSubsections("includeIf"))) {
      includes.addAll(includePaths(config, "includeIf", condition, file));
    }
    for (String include : includes) {
      Path included = includedPath(include, file);
      if (!Files.exists(included)) {
        continue;
      }
      if (depth >= MAX_INCLUDE_DEPTH) {
        throw unreadable(file + " includes files more than " + MAX_INCLUDE_DEPTH + " levels deep; git stops there too");
      }
      collect(included, depth + 1, where, keys);
    }
  }

  /** The values of {@code SECTION[.SUBSECTION].path} in {@code config}; git refuses one without a value. */
  private static List<String> includePaths(Config config, String section, String subsection, Path file) {
    List<String> paths = new ArrayList<>();
    for (String name : config.getNames(section, subsection)) {
      if (!name.equalsIgnoreCase("path")) {
        continue;
      }
      for (String value : config.getStringList(section, subsection, name)) {
        if (value == null || value.isEmpty()) {
          throw unreadable(file + " has an include path without a value, which git refuses");
        }
        paths.add(value);
      }
    }
    return paths;
  }

  /** Where git finds the included {@code path} named in {@code includingFile}. */
  private Path includedPath(String path, Path includingFile) {
    if (path.startsWith("~/") || path.equals("~")) {
      String home = environment.get("HOME");
      if (home == null) {
        throw unreadable(includingFile + " includes " + Printable.quote(path) + " but HOME is not set, which git refuses");
      }
      return absolute(home + path.substring(1), "HOME");
    }
    if (path.startsWith("~") || path.startsWith("%(prefix)/")) {
      throw unreadable(includingFile + " includes " + Printable.quote(path)
          + ", a form the kernel cannot resolve as git would (another user's home, or git's installation prefix)");
    }
    return resolve(includingFile.getParent(), path, "an include in " + includingFile);
  }

  /** {@code file} parsed by JGit, includes not followed: BOM dropped, UTF-8 only, at most {@link #MAX_FILE_BYTES}. */
  private Config parse(Path file, boolean counted) {
    if (counted && ++filesRead > MAX_FILES) {
      throw unreadable("more than " + MAX_FILES + " git configuration files to read; the kernel reads at most " + MAX_FILES);
    }
    Config config = new Config();
    if (!counted && !Files.exists(file)) {
      return config;
    }
    byte[] bytes;
    try {
      if (file.toRealPath().equals(DEV_NULL)) {
        return config;
      }
      if (!Files.isRegularFile(file)) {
        // A pipe or a terminal would block the decision; git itself would wait on one forever.
        throw unreadable("the git configuration " + file + " is not a regular file");
      }
      try (InputStream in = Files.newInputStream(file)) {
        bytes = in.readNBytes(MAX_FILE_BYTES + 1);
      }
    } catch (IOException e) {
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE, "the git configuration " + file + " cannot be read: " + e.getMessage(), e);
    }
    if (bytes.length > MAX_FILE_BYTES) {
      throw unreadable("the git configuration " + file + " is larger than " + MAX_FILE_BYTES + " bytes");
    }
    int start = bytes.length >= 3 && (bytes[0] & 0xff) == 0xef && (bytes[1] & 0xff) == 0xbb && (bytes[2] & 0xff) == 0xbf ? 3 : 0;
    try {
      // git reads CR LF as LF everywhere in the file.
      String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, start, bytes.length - start)).toString()
          .replace("\r\n", "\n");
      requireHeadersAlone(text, file);
      config.fromText(text);
      return config;
    } catch (CharacterCodingException e) {
      // A name whose bytes do not survive decoding could not be neutralized under its own name.
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE, "the git configuration " + file + " is not UTF-8", e);
    } catch (ConfigInvalidException | IllegalArgumentException e) {
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE,
          "the git configuration " + file + " cannot be parsed: " + e.getMessage(), e);
    }
  }

  /**
   * Refuses a section header followed on its line by anything but a comment: git reads
   * {@code [filter "x"] clean = prog} as a key, JGit as a comment, so the key would be missed.
   */
  private static void requireHeadersAlone(String text, Path file) {
    for (String line : text.split("\n", -1)) {
      String stripped = line.stripLeading();
      if (!stripped.startsWith("[")) {
        continue;
      }
      boolean quoted = false;
      int end = -1;
      for (int i = 1; i < stripped.length() && end < 0; i++) {
        char c = stripped.charAt(i);
        if (quoted && c == '\\') {
          i++;
        } else if (c == '"') {
          quoted = !quoted;
        } else if (!quoted && c == ']') {
          end = i;
        }
      }
      String rest = end < 0 ? "" : stripped.substring(end + 1).strip();
      if (!rest.isEmpty() && rest.charAt(0) != '#' && rest.charAt(0) != ';') {
        throw unreadable(file + " has a key on the line of its section header, " + Printable.quote(line)
            + ", which git reads and the kernel's parser would not");
      }
    }
  }

  private static boolean booleanOf(Config config, String section, String name, Path file) {
    try {
      return config.getBoolean(section, null, name, false);
    } catch (IllegalArgumentException e) {
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE,
          file + " sets " + section + "." + name + " to a value that is not a boolean", e);
    }
  }

  /** The common directory of {@code gitDirectory}: {@code GIT_COMMON_DIR}, else what its {@code commondir} file names, else itself. */
  private Path commonDirectory(Path gitDirectory) {
    String common = environment.get("GIT_COMMON_DIR");
    if (common != null) {
      return realDirectory(absolute(common, "GIT_COMMON_DIR"), "GIT_COMMON_DIR");
    }
    return GitLocations.ofGitDirectory(gitDirectory).commonDirectory().orElse(gitDirectory);
  }

  /**
   * Whether git takes {@code directory} for a git directory: a valid {@code HEAD} (a link into
   * {@code refs/}, {@code ref: refs/...}, or an object id) and, in its common directory,
   * {@code objects} (or {@code GIT_OBJECT_DIRECTORY}) and {@code refs}.
   */
  private boolean isGitDirectory(Path directory) {
    if (!Files.isDirectory(directory) || !validHead(directory.resolve("HEAD"))) {
      return false;
    }
    Path common = directory;
    Path commondir = directory.resolve("commondir");
    if (Files.exists(commondir, LinkOption.NOFOLLOW_LINKS)) {
      Optional<Path> named = GitLocations.ofGitDirectory(realDirectory(directory, directory.toString())).commonDirectory();
      common = named.orElse(directory);
    }
    String objects = environment.get("GIT_OBJECT_DIRECTORY");
    boolean hasObjects = objects != null ? Files.isDirectory(Path.of(objects)) : Files.isDirectory(common.resolve("objects"));
    return hasObjects && Files.isDirectory(common.resolve("refs"));
  }

  private static boolean validHead(Path head) {
    try {
      if (Files.isSymbolicLink(head)) {
        return Files.readSymbolicLink(head).toString().startsWith("refs/");
      }
      if (!Files.isRegularFile(head)) {
        // Not read: a pipe named HEAD would block the decision.
        return false;
      }
      byte[] bytes;
      try (InputStream in = Files.newInputStream(head)) {
        bytes = in.readNBytes(256);
      }
      String text = new String(bytes, StandardCharsets.UTF_8);
      if (text.startsWith("ref:")) {
        return text.substring(4).strip().startsWith("refs/");
      }
      return HEX_OBJECT_ID.matcher(text.strip()).matches();
    } catch (IOException e) {
      return false;
    }
  }

  /** The git directory a {@code gitdir:} file named {@code .git} names, or the failure git stops with. */
  private static Path gitFileTarget(Path dotGit) {
    if (dotGit.getFileName() == null || !dotGit.getFileName().toString().equals(".git") || dotGit.getParent() == null) {
      throw unreadable("the git directory " + dotGit + " is a file; the kernel reads gitdir: files only where they are named .git");
    }
    return GitLocations.of(dotGit.getParent()).gitDirectory().orElseThrow();
  }

  /** The deepest {@code GIT_CEILING_DIRECTORIES} entry strictly above {@code start}; relative entries are ignored, as git does. */
  private Optional<Path> ceiling(Path start) {
    String ceilings = environment.get("GIT_CEILING_DIRECTORIES");
    if (ceilings == null || ceilings.isEmpty()) {
      return Optional.empty();
    }
    Path deepest = null;
    for (String entry : ceilings.split(":", -1)) {
      if (entry.isEmpty() || !entry.startsWith("/")) {
        continue;
      }
      Path ceiling;
      try {
        ceiling = Path.of(entry).toRealPath();
      } catch (IOException | InvalidPathException e) {
        ceiling = Path.of(entry).normalize();
      }
      if (start.startsWith(ceiling) && !start.equals(ceiling) && (deepest == null || ceiling.getNameCount() > deepest.getNameCount())) {
        deepest = ceiling;
      }
    }
    return Optional.ofNullable(deepest);
  }

  private static Object device(Path directory) {
    try {
      return Files.getAttribute(directory, "unix:dev");
    } catch (IOException | UnsupportedOperationException e) {
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE,
          "the file system of " + directory + " cannot be told, which git's search for a repository needs", e);
    }
  }

  /** git's boolean environment values: {@code 1}, {@code true}, {@code yes}, {@code on}, any case. */
  private static boolean isTrue(String value) {
    return value != null && Set.of("1", "true", "yes", "on").contains(value.toLowerCase(Locale.ROOT));
  }

  private static Path resolve(Path base, String path, String what) {
    try {
      return base.resolve(path);
    } catch (InvalidPathException e) {
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE, what + " " + Printable.quote(path) + " is not a path: " + e.getReason(), e);
    }
  }

  /** {@code path} when absolute; git would resolve a relative one against a directory of its own process, which the kernel does not follow. */
  private static Path absolute(String path, String variable) {
    Path resolved = resolve(Path.of("/"), path, variable);
    if (!path.startsWith("/")) {
      throw unreadable(variable + " is the relative path " + Printable.quote(path)
          + ", which git would resolve against its own working directory; the kernel reads only absolute ones");
    }
    return resolved;
  }

  private static Path realDirectory(Path path, String what) {
    try {
      Path real = path.toRealPath();
      if (!Files.isDirectory(real)) {
        throw unreadable("git would stop: " + what + " (" + path + ") is not a directory");
      }
      return real;
    } catch (IOException e) {
      throw new AuthorityException(GIT_CONFIGURATION_UNREADABLE, "git would stop: " + what + " (" + path + ") cannot be resolved: " + e.getMessage(), e);
    }
  }

  private static AuthorityException unreadable(String message) {
    return new AuthorityException(GIT_CONFIGURATION_UNREADABLE, message);
  }
}
