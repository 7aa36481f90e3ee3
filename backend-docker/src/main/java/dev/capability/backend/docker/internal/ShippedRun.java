package dev.capability.backend.docker.internal;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import dev.capability.backend.support.HostPaths;
import dev.capability.backend.support.PinnedCopy;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.ShippedWorkspace;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One launch on a remote daemon, which sees nothing of this host: no path of this host is bound.
 * The container gets two named volumes of its own, labelled like the container (so the leak sweep
 * finds them), and the image's read-only root stays read-only:
 *
 * <ol>
 *   <li>{@value #EXECUTABLE_DIRECTORY}, holding the private copy of the pinned executable (the
 *       bytes whose hash was pinned, owned by root, mode 0555), which is what runs;
 *   <li>with a {@link ShippedWorkspace}, the repository's path, holding the input as {@link
 *       ShippedWorkspace#writeInput} writes it: owned by root except the writable roots, owned by
 *       the container's uid.
 * </ol>
 *
 * Both are written through the Engine API's archive endpoint ({@code PUT
 * /containers/{id}/archive}) before the container starts. After it ended (also after a timeout or
 * a failure once the input was shipped), each writable root is read back ({@code GET
 * /containers/{id}/archive}), renamed relative to the repository, and handed to {@link
 * ShippedWorkspace#receiveWritableRoots} as one archive; entries at or below a protected path or a
 * nested {@code .git} are left out, since the container could write there (a local run binds them
 * read-only). Then the container and its volumes are removed.
 */
final class ShippedRun {
  /** Where the shipped executable lies inside the container. */
  static final String EXECUTABLE_DIRECTORY = "/opt/capability/run";

  private static final Logger LOG = LoggerFactory.getLogger(ShippedRun.class);

  /** Paths inside the image a repository may neither be nor contain nor lie below. */
  private static final List<Path> RESERVED =
      List.of("/proc", "/sys", "/dev", "/opt/capability", "/etc", "/tmp").stream().map(Path::of).toList();

  private final ContainerRun run;
  private final DockerClient client;
  private final DockerSettings settings;
  private final HostJvm jvm;

  ShippedRun(ContainerRun run, DockerClient client, DockerSettings settings, HostJvm jvm) {
    this.run = Objects.requireNonNull(run, "run");
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.jvm = Objects.requireNonNull(jvm, "jvm");
  }

  LaunchResult run(LaunchSpec spec) {
    Optional<ShippedWorkspace> workspace = spec.workspace();
    Optional<Path> repository = spec.repository();
    if (repository.isPresent() && workspace.isEmpty()) {
      throw new LaunchFailedException(
          "a remote docker daemon cannot see the repository "
              + repository.get()
              + ": the spec must carry a ShippedWorkspace (the kernel gives one to a backend that"
              + " advertises REMOTE_WORKSPACE)");
    }
    if (repository.isEmpty() && !spec.writableRoots().isEmpty()) {
      throw new LaunchFailedException(
          "a remote docker daemon can write only inside a shipped repository; writable roots "
              + spec.writableRoots()
              + " need one");
    }
    repository.ifPresent(ShippedRun::requirePlaceable);
    if (repository.isPresent() && spec.writableRoots().contains(repository.get())) {
      // The archive endpoint skips the entry of the directory it extracts into, so the volume's
      // own directory keeps the daemon's owner (root) and the container's uid could not write it.
      throw new LaunchFailedException(
          "a remote docker daemon cannot make the repository "
              + repository.get()
              + " itself writable (the archive endpoint does not give the directory it extracts"
              + " into to the container's uid); grant writable roots below it");
    }
    for (Path root : spec.writableRoots()) {
      if (!root.startsWith(repository.orElseThrow())) {
        throw new LaunchFailedException(
            "writable root " + root + " lies outside the shipped repository " + repository.get());
      }
    }
    Path workingDirectory =
        HostPaths.requireNormalAbsolute(spec.workingDirectory(), "working directory");
    if (repository.isPresent()
        && workingDirectory.startsWith(repository.get())
        && !Files.isDirectory(workingDirectory)) {
      // The shipped tree is the repository as it is here: what is missing here is missing there.
      throw new LaunchFailedException(
          "working directory " + workingDirectory + " does not exist or is not a directory");
    }
    Path executable = HostPaths.requireNormalAbsolute(spec.executable().path(), "executable path");
    String inside = EXECUTABLE_DIRECTORY + "/" + executable.getFileName();
    List<String> entrypoint = run.entrypoint(spec, inside);
    List<Path> excluded = excluded(spec);
    byte[] stdin = ContainerRun.stdin(spec);
    String runId = UUID.randomUUID().toString();
    Path runDirectory = run.createRunDirectory(runId);
    List<String> volumes = new ArrayList<>();
    try {
      Path copy = runDirectory.resolve("executable");
      PinnedCopy.copy(spec.executable(), copy);
      List<Mount> mounts = new ArrayList<>();
      mounts.add(volume(volumes, runId, "executable", EXECUTABLE_DIRECTORY));
      if (repository.isPresent()) {
        mounts.add(volume(volumes, runId, "workspace", repository.get().toString()));
      }
      String id = run.create(spec, entrypoint, runId, mounts);
      try {
        upload(id, EXECUTABLE_DIRECTORY, executableArchive(copy, executable.getFileName().toString(), runDirectory));
        if (workspace.isEmpty()) {
          return run.startAndWait(spec, id, stdin, false);
        }
        Path input = runDirectory.resolve("input.tar");
        try (OutputStream out = Files.newOutputStream(input)) {
          workspace.get()
              .writeInput(
                  out,
                  new ShippedWorkspace.Owner(0, 0),
                  new ShippedWorkspace.Owner(settings.uid(), settings.gid()));
        } catch (IOException e) {
          throw new LaunchFailedException("cannot write the shipped workspace: " + e, e);
        }
        upload(id, repository.get().toString(), input);
        LaunchResult result;
        try {
          result = run.startAndWait(spec, id, stdin, false);
        } catch (RuntimeException e) {
          try {
            bringBack(id, spec, workspace.get(), excluded, runDirectory);
          } catch (RuntimeException returnFailed) {
            e.addSuppressed(returnFailed);
          }
          throw e;
        }
        bringBack(id, spec, workspace.get(), excluded, runDirectory);
        return result;
      } finally {
        run.remove(id);
      }
    } finally {
      for (String volume : volumes) {
        removeVolume(volume);
      }
      ContainerRun.deleteTree(runDirectory);
    }
  }

  /** Refuses a repository path the container cannot hold as a volume of its own. */
  private static void requirePlaceable(Path repository) {
    HostPaths.requireNormalAbsolute(repository, "repository");
    if (repository.getNameCount() == 0) {
      throw new LaunchFailedException("repository / would replace the container's whole root");
    }
    for (Path reserved : RESERVED) {
      if (reserved.startsWith(repository)
          || (repository.startsWith(reserved) && !reserved.equals(Path.of("/tmp")))) {
        throw new LaunchFailedException(
            "repository " + repository + " is, contains or lies in " + reserved + ", which the container keeps for itself");
      }
    }
  }

  /**
   * What of the returned roots is left out, relative to the repository: the protected paths a
   * writable root exposes and every nested {@code .git} (matched by name when the archive is read).
   */
  private static List<Path> excluded(LaunchSpec spec) {
    List<Path> excluded = new ArrayList<>();
    spec.repository()
        .ifPresent(repo -> HostPaths.exposedProtectedPaths(spec).forEach(p -> excluded.add(repo.relativize(p))));
    return excluded;
  }

  private Mount volume(List<String> volumes, String runId, String role, String target) {
    String name = "ck-" + runId + "-" + role;
    try {
      client.createVolumeCmd().withName(name).withLabels(Labels.forRun(runId, jvm)).exec();
    } catch (DockerException e) {
      throw new LaunchFailedException("the daemon refused to create volume " + name + ": " + e.getMessage(), e);
    }
    volumes.add(name);
    return new Mount().withType(MountType.VOLUME).withSource(name).withTarget(target).withReadOnly(false);
  }

  private static Path executableArchive(Path copy, String name, Path runDirectory) {
    Path archive = runDirectory.resolve("executable.tar");
    try (OutputStream file = Files.newOutputStream(archive);
        TarArchiveOutputStream tar = new TarArchiveOutputStream(file)) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
      TarArchiveEntry entry = new TarArchiveEntry(name);
      entry.setSize(Files.size(copy));
      entry.setMode(0100555);
      entry.setIds(0, 0);
      tar.putArchiveEntry(entry);
      Files.copy(copy, tar);
      tar.closeArchiveEntry();
    } catch (IOException e) {
      throw new LaunchFailedException("cannot pack the executable for the remote daemon: " + e, e);
    }
    return archive;
  }

  private void upload(String id, String path, Path archive) {
    try (InputStream in = Files.newInputStream(archive)) {
      client.copyArchiveToContainerCmd(id).withRemotePath(path).withTarInputStream(in).exec();
    } catch (IOException | DockerException e) {
      throw new LaunchFailedException(
          "cannot ship " + archive.getFileName() + " to " + path + " in container " + id + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads each writable root back, renamed relative to the repository, into one archive bounded
   * by {@link ShippedWorkspace#maxReturnBytes()}, and hands it to the kernel.
   *
   * @throws LaunchFailedException when a root cannot be read, or the roots hold more than the
   *     bound; nothing is applied then
   */
  private void bringBack(
      String id, LaunchSpec spec, ShippedWorkspace workspace, List<Path> excluded, Path runDirectory) {
    Path repository = spec.repository().orElseThrow();
    Path merged = runDirectory.resolve("returned.tar");
    long limit = workspace.maxReturnBytes();
    try (OutputStream file = Files.newOutputStream(merged);
        TarArchiveOutputStream out = new TarArchiveOutputStream(file)) {
      out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      out.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
      long bytes = 0;
      for (Path root : spec.writableRoots()) {
        Path relative = repository.relativize(root);
        try (InputStream raw = client.copyArchiveFromContainerCmd(id, root.toString()).exec();
            TarArchiveInputStream in = new TarArchiveInputStream(raw)) {
          TarArchiveEntry entry;
          while ((entry = in.getNextEntry()) != null) {
            String name = relativeToRepository(entry.getName(), relative);
            if (isExcluded(name, excluded)) {
              continue;
            }
            bytes += entry.getSize() + 512;
            if (bytes > limit) {
              throw new LaunchFailedException(
                  "the writable roots of "
                      + spec.executable().path()
                      + " hold more than the "
                      + limit
                      + " bytes a shipped workspace may bring back; nothing of them was applied");
            }
            entry.setName(name);
            if (entry.isLink()) {
              entry.setLinkName(relativeToRepository(entry.getLinkName(), relative));
            }
            out.putArchiveEntry(entry);
            if (entry.isFile()) {
              in.transferTo(out);
            }
            out.closeArchiveEntry();
          }
        } catch (NotFoundException e) {
          LOG.debug("writable root {} is gone from container {}", root, id);
        } catch (DockerException e) {
          throw new LaunchFailedException(
              "cannot read writable root " + root + " back from container " + id + ": " + e.getMessage(), e);
        }
      }
    } catch (IOException e) {
      throw new LaunchFailedException("cannot read the writable roots back from container " + id + ": " + e, e);
    }
    try (InputStream in = Files.newInputStream(merged)) {
      workspace.receiveWritableRoots(in);
    } catch (IOException e) {
      throw new LaunchFailedException("the kernel could not take the writable roots back: " + e, e);
    }
  }

  /**
   * An archive name of the daemon's (it starts with the root's own name: {@code b/x} for the root
   * {@code a/b}) renamed relative to the repository ({@code a/b/x}); for the repository itself as
   * root ({@code relative} empty), its own name is dropped ({@code ./x}).
   */
  static String relativeToRepository(String name, Path relative) {
    if (relative.toString().isEmpty()) {
      int slash = name.indexOf('/');
      return slash < 0 ? "./" : "./" + name.substring(slash + 1);
    }
    Path parent = relative.getParent();
    return parent == null ? name : parent + "/" + name;
  }

  private static boolean isExcluded(String name, List<Path> excluded) {
    Path path = Path.of(name.endsWith("/") ? name.substring(0, name.length() - 1) : name).normalize();
    for (Path part : path) {
      if (part.toString().equals(".git")) {
        return true;
      }
    }
    return excluded.stream().anyMatch(p -> path.startsWith(p));
  }

  private void removeVolume(String name) {
    try {
      client.removeVolumeCmd(name).exec();
    } catch (NotFoundException e) {
      LOG.debug("volume {} was already gone", name);
    } catch (DockerException e) {
      LOG.debug("removing volume {} failed: {}", name, e.getMessage());
    }
  }
}
