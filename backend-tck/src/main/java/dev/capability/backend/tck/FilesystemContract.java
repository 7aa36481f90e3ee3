package dev.capability.backend.tck;

import static dev.capability.kernel.api.backend.IsolationCapability.PRIVATE_TMP;
import static dev.capability.kernel.api.backend.IsolationCapability.READ_ONLY_REPOSITORY;
import static dev.capability.kernel.api.backend.IsolationCapability.READ_ONLY_ROOT;
import static dev.capability.kernel.api.backend.IsolationCapability.WRITABLE_SCOPE_ROOTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.backend.LaunchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Attacks on the host's files. The command gets the workspace repository with one writable root,
 * {@code repository/writable}, and tries to write everywhere else. Every target is writable by any
 * user, so only isolation can stop the write; whether it happened is judged on the host, so a write
 * that only reached a private copy (a tmpfs, an overlay) counts as stopped.
 */
public interface FilesystemContract extends BackendUnderTest {

  @Test
  default void writableRootsAreWritable() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path created = workspace.writable().resolve("created.txt");
      Path nested = workspace.writable().resolve("nested");
      Path write =
          workspace.script(
              "write.sh", "printf inside > \"$1\" && mkdir \"$2\" && printf deep > \"$2/file\"");

      LaunchResult result =
          launches.run(
              launches
                  .spec(write, created.toString(), nested.toString())
                  .writableRoots(List.of(workspace.writable()))
                  .build());

      assertThat(result.exitCode()).as("stderr: %s", result.stderr().text()).hasValue(0);
      assertThat(created).hasContent("inside");
      assertThat(nested.resolve("file")).hasContent("deep");
    }
  }

  @Test
  default void cannotWriteTheRepositoryOutsideItsWritableRoots() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path existing = workspace.openFile(workspace.shared().resolve("existing.txt"), "original");
      Path doomed = workspace.openFile(workspace.shared().resolve("doomed.txt"), "keep me");
      Path created = workspace.shared().resolve("created.txt");
      Path directory = workspace.shared().resolve("created-dir");
      Path topLevel = workspace.repository().resolve("created.txt");
      Path control = workspace.writable().resolve("control.txt");
      Path attack =
          workspace.script(
              "attack.sh",
              "printf attack > \"$1\"\nprintf attack > \"$2\"\nrm -f \"$3\"\nmkdir \"$4\"\n"
                  + "printf attack > \"$5\"\nprintf control > \"$6\" || exit 1");

      LaunchResult result =
          launches.run(
              launches
                  .spec(
                      attack,
                      existing.toString(),
                      created.toString(),
                      doomed.toString(),
                      directory.toString(),
                      topLevel.toString(),
                      control.toString())
                  .writableRoots(List.of(workspace.writable()))
                  .build());

      Claims.fixtureRan(result, 0);
      assertThat(control).as("the writable root next to the attack").hasContent("control");
      List<String> changed = new ArrayList<>();
      if (!read(existing).equals("original")) {
        changed.add("overwrote " + existing);
      }
      if (Files.exists(created)) {
        changed.add("created " + created);
      }
      if (!Files.exists(doomed)) {
        changed.add("deleted " + doomed);
      }
      if (Files.exists(directory)) {
        changed.add("created directory " + directory);
      }
      if (Files.exists(topLevel)) {
        changed.add("created " + topLevel);
      }
      Claims claims = Claims.of(backend());
      claims.attack(
          !changed.isEmpty(),
          "the command " + String.join(", ", changed),
          READ_ONLY_REPOSITORY,
          WRITABLE_SCOPE_ROOTS);
      claims.verify();
    }
  }

  @Test
  default void cannotWriteHostFilesOutsideTheRepository() {
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path existing = workspace.openFile(workspace.outside().resolve("existing.txt"), "original");
      Path created = workspace.outside().resolve("created.txt");
      Path besideRepository = workspace.root().resolve("created.txt");
      Path attack =
          workspace.script(
              "attack.sh",
              "printf attack > \"$1\"\nprintf attack > \"$2\"\nprintf attack > \"$3\"\nexit 0");

      LaunchResult result =
          launches.run(
              launches
                  .spec(
                      attack, existing.toString(), created.toString(), besideRepository.toString())
                  .writableRoots(List.of(workspace.writable()))
                  .build());

      Claims.fixtureRan(result, 0);
      List<String> changed = new ArrayList<>();
      if (!read(existing).equals("original")) {
        changed.add("overwrote " + existing);
      }
      if (Files.exists(created)) {
        changed.add("created " + created);
      }
      if (Files.exists(besideRepository)) {
        changed.add("created " + besideRepository);
      }
      Claims claims = Claims.of(backend());
      claims.attack(
          !changed.isEmpty(), "the command " + String.join(", ", changed), WRITABLE_SCOPE_ROOTS);
      claims.verify();
    }
  }

  @Test
  default void cannotCreateFilesOnTheHostRootFilesystem() {
    String name = "ck-tck-" + UUID.randomUUID();
    // /var/tmp is world-writable on most hosts, so even a command without root can try it.
    List<Path> targets = List.of(Path.of("/", name), Path.of("/var/tmp", name));
    try (Workspace workspace = Workspace.create()) {
      Launches launches = new Launches(this, workspace);
      Path attack =
          workspace.script("attack.sh", "for f in \"$@\"; do printf attack > \"$f\"; done\nexit 0");

      LaunchResult result =
          launches.run(
              launches
                  .spec(attack, targets.stream().map(Path::toString).toArray(String[]::new))
                  .writableRoots(List.of(workspace.writable()))
                  .build());

      Claims.fixtureRan(result, 0);
      List<String> created = targets.stream().filter(Files::exists).map(Path::toString).toList();
      Claims claims = Claims.of(backend());
      claims.attack(
          !created.isEmpty(),
          "the command created " + created + " on the host",
          READ_ONLY_ROOT,
          WRITABLE_SCOPE_ROOTS);
      claims.verify();
    } finally {
      targets.forEach(FilesystemContract::removeResidue);
    }
  }

  @Test
  default void cannotSeeOrWriteTheHostTmp() {
    String name = "ck-tck-" + UUID.randomUUID();
    Path hostFile = Path.of("/tmp", name + "-host");
    Path created = Path.of("/tmp", name + "-created");
    try (Workspace workspace = Workspace.create()) {
      workspace.readableFile(hostFile, "host".getBytes(StandardCharsets.UTF_8));
      Launches launches = new Launches(this, workspace);
      Path attack =
          workspace.script(
              "attack.sh", "if [ -e \"$1\" ]; then echo seen; fi\nprintf attack > \"$2\"\nexit 0");

      LaunchResult result =
          launches.run(
              launches
                  .spec(attack, hostFile.toString(), created.toString())
                  .writableRoots(List.of(workspace.writable()))
                  .build());

      Claims.fixtureRan(result, 0);
      boolean seen = result.stdout().text().lines().anyMatch("seen"::equals);
      Claims claims = Claims.of(backend());
      claims.attack(seen, "the command saw the host's " + hostFile, PRIVATE_TMP);
      claims.attack(
          Files.exists(created),
          "the command created " + created + " in the host's /tmp",
          PRIVATE_TMP,
          WRITABLE_SCOPE_ROOTS);
      claims.verify();
    } finally {
      removeResidue(hostFile);
      removeResidue(created);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static void removeResidue(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + file + " that an attack created", e);
    }
  }
}
