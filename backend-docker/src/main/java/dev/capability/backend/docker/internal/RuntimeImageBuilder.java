package dev.capability.backend.docker.internal;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import dev.capability.backend.support.DirectoryTrees;
import dev.capability.backend.support.StaticCompiler;
import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.Sha256;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the minimal runtime image without any registry: a root filesystem holding the entrypoint
 * {@code ck-launch} (compiled here from its C source with the host's C compiler, statically),
 * busybox (a userland for images used without the host's system directories), tini (as PID 1), a jlink'ed Java runtime, {@code /etc/passwd} naming {@code
 * nobody}, and the host's top-level system symlinks (merged {@code /usr}), written as a tar in the
 * {@code docker save} format and loaded through the API. The tar is deterministic (sorted entries,
 * fixed times and owners), so its config digest, which is the image id, depends only on the inputs.
 * The image's label {@code dev.capability.image.content} is a digest of the recipe's inputs; a tag
 * that already carries the same value is left alone, without running jlink.
 */
public final class RuntimeImageBuilder {
  /** Where the image keeps its own tools and Java runtime. */
  public static final String TOOL_DIRECTORY = "/opt/capability";

  public static final String BUSYBOX = TOOL_DIRECTORY + "/bin/busybox";
  public static final String LAUNCHER = TOOL_DIRECTORY + "/bin/ck-launch";
  public static final String TINI = TOOL_DIRECTORY + "/bin/tini";
  public static final String JAVA_HOME = TOOL_DIRECTORY + "/java";

  /** The modules the runtime holds by default: what the capability host needs. */
  public static final List<String> DEFAULT_MODULES =
      List.of("java.base", "java.logging", "java.management", "jdk.unsupported");

  private static final Logger LOG = LoggerFactory.getLogger(RuntimeImageBuilder.class);
  private static final String RECIPE_VERSION = "2";
  private static final String LAUNCHER_SOURCE = "ck-launch.c";
  private static final Date EPOCH = new Date(0);

  private final DockerClient client;
  private final Path compiler;
  private final Path busybox;
  private final Path tini;
  private final List<String> modules;
  private final Path workDirectory;
  private final Consumer<String> progress;

  /**
   * @param client the daemon to load the image into
   * @param compiler a C compiler on this host that links statically ({@code gcc} with the C
   *     library's static archive), for the entrypoint launcher
   * @param busybox a statically linked busybox on this host
   * @param tini a statically linked tini on this host
   * @param modules the Java modules to jlink; empty for an image without Java
   * @param workDirectory where the tar is assembled
   * @param progress told each step of a build, as a short sentence, before it starts; not told
   *     anything when the image is already up to date
   */
  public RuntimeImageBuilder(
      DockerClient client,
      Path compiler,
      Path busybox,
      Path tini,
      List<String> modules,
      Path workDirectory,
      Consumer<String> progress) {
    this.client = Objects.requireNonNull(client, "client");
    this.compiler = Objects.requireNonNull(compiler, "compiler");
    this.busybox = Objects.requireNonNull(busybox, "busybox");
    this.tini = Objects.requireNonNull(tini, "tini");
    this.modules = List.copyOf(modules);
    this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
    this.progress = Objects.requireNonNull(progress, "progress");
  }

  /**
   * Makes sure {@code tag} names an image built from these inputs; builds and loads it when not.
   *
   * @return the image id
   * @throws BackendUnavailableException when an input is missing or the daemon refuses the image
   */
  public String ensure(String tag) {
    byte[] launcher = compileLauncher();
    String recipe = recipeDigest(launcher);
    Optional<InspectImageResponse> existing = inspect(tag);
    if (existing.isPresent()
        && existing.get().getConfig() != null
        && existing.get().getConfig().getLabels() != null
        && recipe.equals(existing.get().getConfig().getLabels().get(Labels.IMAGE_CONTENT))) {
      return existing.get().getId();
    }
    progress.accept(
        "building the runtime image "
            + tag
            + (existing.isPresent() ? " (its inputs changed)" : " (not on the daemon yet)"));
    Path scratch = null;
    try {
      scratch = Files.createTempDirectory(workDirectory, "ck-docker-image-");
      Path root = scratch.resolve("root");
      Files.createDirectory(root);
      if (!modules.isEmpty()) {
        progress.accept("jlink: a Java runtime of " + String.join(", ", modules));
        jlink(root.resolve(JAVA_HOME.substring(1)));
      }
      Path layer = scratch.resolve("layer.tar");
      progress.accept("writing the image layer");
      String layerDigest = writeLayer(root, layer, launcher);
      byte[] config = config(recipe, layerDigest);
      String configDigest = Sha256.hex(config);
      Path image = scratch.resolve("image.tar");
      writeImage(image, tag, config, configDigest, layer, layerDigest);
      progress.accept("loading the image (" + Files.size(image) / (1024 * 1024) + " MiB) into the daemon");
      try (InputStream in = Files.newInputStream(image)) {
        client.loadImageCmd(in).exec();
      }
      return inspect(tag)
          .map(InspectImageResponse::getId)
          .orElseThrow(() -> unavailable("the daemon loaded the image but " + tag + " is missing"));
    } catch (IOException e) {
      throw unavailable("cannot build the runtime image " + tag + ": " + e);
    } finally {
      if (scratch != null) {
        deleteTree(scratch);
      }
    }
  }

  private Optional<InspectImageResponse> inspect(String tag) {
    try {
      return Optional.of(client.inspectImageCmd(tag).exec());
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  private String recipeDigest(byte[] launcher) {
    MessageDigest digest = Sha256.newDigest();
    update(digest, "recipe " + RECIPE_VERSION);
    update(digest, "launcher " + Sha256.hex(launcher));
    update(digest, "busybox " + fileDigest(busybox));
    update(digest, "tini " + fileDigest(tini));
    update(digest, "java " + System.getProperty("java.home") + " " + Runtime.version());
    update(digest, "modules " + String.join(",", modules));
    for (Path dir : DockerSettings.DEFAULT_SYSTEM_PATHS) {
      update(digest, "system " + dir + " " + symlinkTarget(dir).orElse(""));
    }
    return Sha256.hex(digest);
  }

  private static void update(MessageDigest digest, String line) {
    digest.update((line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private static String fileDigest(Path file) {
    try {
      return Sha256.hex(Files.readAllBytes(file));
    } catch (IOException e) {
      throw unavailable("cannot read " + file + " for the runtime image: " + e);
    }
  }

  /**
   * Compiles {@code ck-launch} from the C source this module ships. Compiled on every call, since
   * its bytes are an input of the recipe (a new compiler or C library gives a new image); it takes
   * a fraction of a second. The output of the same compiler and source is the same bytes.
   */
  private byte[] compileLauncher() {
    return new StaticCompiler(compiler)
        .compile(
            "the entrypoint launcher",
            StaticCompiler.source(RuntimeImageBuilder.class, LAUNCHER_SOURCE),
            workDirectory);
  }

  private void jlink(Path javaHome) throws IOException {
    Path jlink = Path.of(System.getProperty("java.home"), "bin", "jlink");
    if (!Files.isExecutable(jlink)) {
      throw unavailable("no jlink at " + jlink + "; run with a JDK, not a JRE");
    }
    Files.createDirectories(javaHome.getParent());
    List<String> argv =
        List.of(
            jlink.toString(),
            "--add-modules",
            String.join(",", modules),
            "--strip-debug",
            "--no-header-files",
            "--no-man-pages",
            "--compress=2",
            "--output",
            javaHome.toString());
    Path log = javaHome.getParent().resolveSibling("jlink.log");
    Process process =
        new ProcessBuilder(argv)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    int status = StaticCompiler.awaitTool(process, "jlink");
    if (status != 0) {
      throw unavailable("jlink failed with status " + status + ": " + Files.readString(log).strip());
    }
  }

  private String writeLayer(Path root, Path layer, byte[] launcher) throws IOException {
    MessageDigest digest = Sha256.newDigest();
    try (OutputStream file = Files.newOutputStream(layer);
        DigestOutputStream hashed = new DigestOutputStream(file, digest);
        TarArchiveOutputStream tar = new TarArchiveOutputStream(hashed)) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
      for (String dir : List.of("dev", "etc", "opt", "opt/capability", "opt/capability/bin", "proc", "sys", "var")) {
        directory(tar, dir, 0755);
      }
      directory(tar, "tmp", 01777);
      for (Path system : DockerSettings.DEFAULT_SYSTEM_PATHS) {
        String name = system.toString().substring(1);
        Optional<String> target = symlinkTarget(system);
        if (target.isPresent()) {
          TarArchiveEntry link = new TarArchiveEntry(name, TarArchiveEntry.LF_SYMLINK);
          link.setLinkName(target.get());
          stamp(link, 0777);
          tar.putArchiveEntry(link);
          tar.closeArchiveEntry();
        } else if (Files.isDirectory(system, LinkOption.NOFOLLOW_LINKS)) {
          directory(tar, name, 0755);
        }
      }
      file(
          tar,
          "etc/passwd",
          ("root:x:0:0:root:/nonexistent:/sbin/nologin\n"
                  + "nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n")
              .getBytes(StandardCharsets.US_ASCII),
          0644);
      file(tar, "etc/group", "root:x:0:\nnogroup:x:65534:\n".getBytes(StandardCharsets.US_ASCII), 0644);
      file(tar, BUSYBOX.substring(1), Files.readAllBytes(busybox), 0755);
      file(tar, LAUNCHER.substring(1), launcher, 0755);
      file(tar, TINI.substring(1), Files.readAllBytes(tini), 0755);
      addTree(tar, root);
      tar.finish();
    }
    return Sha256.hex(digest);
  }

  private static void addTree(TarArchiveOutputStream tar, Path root) throws IOException {
    List<Path> paths = new ArrayList<>();
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            if (!dir.equals(root)) {
              paths.add(dir);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            paths.add(file);
            return FileVisitResult.CONTINUE;
          }
        });
    paths.sort(Comparator.comparing(p -> root.relativize(p).toString()));
    for (Path path : paths) {
      String name = root.relativize(path).toString();
      if (name.equals("opt") || name.equals("opt/capability")) {
        continue;
      }
      int mode = mode(path);
      if (Files.isSymbolicLink(path)) {
        TarArchiveEntry link = new TarArchiveEntry(name, TarArchiveEntry.LF_SYMLINK);
        link.setLinkName(Files.readSymbolicLink(path).toString());
        stamp(link, 0777);
        tar.putArchiveEntry(link);
        tar.closeArchiveEntry();
      } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
        directory(tar, name, 0755);
      } else {
        file(tar, name, Files.readAllBytes(path), mode);
      }
    }
  }

  private static int mode(Path path) throws IOException {
    if (Files.isSymbolicLink(path)) {
      return 0777;
    }
    Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
    return permissions.contains(PosixFilePermission.OWNER_EXECUTE) ? 0755 : 0644;
  }

  private static void directory(TarArchiveOutputStream tar, String name, int mode)
      throws IOException {
    TarArchiveEntry entry = new TarArchiveEntry(name + "/");
    stamp(entry, mode);
    tar.putArchiveEntry(entry);
    tar.closeArchiveEntry();
  }

  private static void file(TarArchiveOutputStream tar, String name, byte[] bytes, int mode)
      throws IOException {
    TarArchiveEntry entry = new TarArchiveEntry(name);
    stamp(entry, mode);
    entry.setSize(bytes.length);
    tar.putArchiveEntry(entry);
    tar.write(bytes);
    tar.closeArchiveEntry();
  }

  private static void stamp(TarArchiveEntry entry, int mode) {
    entry.setMode(mode);
    entry.setModTime(EPOCH);
    entry.setUserId(0);
    entry.setGroupId(0);
    entry.setUserName("");
    entry.setGroupName("");
  }

  private byte[] config(String recipe, String layerDigest) {
    Map<String, String> labels = new TreeMap<>();
    labels.put(Labels.SDK, "1");
    labels.put(Labels.IMAGE_CONTENT, recipe);
    StringBuilder json = new StringBuilder();
    json.append("{\"architecture\":").append(quote(architecture()));
    json.append(",\"os\":\"linux\",\"created\":\"1970-01-01T00:00:00Z\"");
    json.append(",\"config\":{\"User\":\"65534:65534\",\"WorkingDir\":\"/\",\"Env\":[],\"Labels\":{");
    boolean first = true;
    for (Map.Entry<String, String> label : labels.entrySet()) {
      json.append(first ? "" : ",").append(quote(label.getKey())).append(':').append(quote(label.getValue()));
      first = false;
    }
    json.append("}}");
    json.append(",\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[")
        .append(quote("sha256:" + layerDigest))
        .append("]}");
    json.append(",\"history\":[{\"created\":\"1970-01-01T00:00:00Z\",\"created_by\":")
        .append(quote("capability RuntimeImageBuilder " + RECIPE_VERSION))
        .append("}]}");
    return json.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void writeImage(
      Path image, String tag, byte[] config, String configDigest, Path layer, String layerDigest)
      throws IOException {
    String manifest =
        "[{\"Config\":"
            + quote(configDigest + ".json")
            + ",\"RepoTags\":["
            + quote(tag)
            + "],\"Layers\":["
            + quote(layerDigest + "/layer.tar")
            + "]}]";
    try (OutputStream file = Files.newOutputStream(image);
        TarArchiveOutputStream tar = new TarArchiveOutputStream(file)) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
      file(tar, configDigest + ".json", config, 0644);
      directory(tar, layerDigest, 0755);
      TarArchiveEntry entry = new TarArchiveEntry(layerDigest + "/layer.tar");
      stamp(entry, 0644);
      entry.setSize(Files.size(layer));
      tar.putArchiveEntry(entry);
      Files.copy(layer, tar);
      tar.closeArchiveEntry();
      file(tar, "manifest.json", manifest.getBytes(StandardCharsets.UTF_8), 0644);
      tar.finish();
    }
  }

  private static Optional<String> symlinkTarget(Path path) {
    try {
      return Files.isSymbolicLink(path)
          ? Optional.of(Files.readSymbolicLink(path).toString())
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static String architecture() {
    String arch = System.getProperty("os.arch");
    return switch (arch) {
      case "amd64", "x86_64" -> "amd64";
      case "aarch64", "arm64" -> "arm64";
      default -> arch;
    };
  }

  private static String quote(String value) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : value.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  private static void deleteTree(Path root) {
    try {
      DirectoryTrees.delete(root);
    } catch (IOException e) {
      LOG.debug("cannot delete {}: {}", root, e.getMessage());
    }
  }

  private static BackendUnavailableException unavailable(String message) {
    return new BackendUnavailableException(BackendUnavailableException.UNAVAILABLE, message);
  }
}
