package dev.capability.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.backend.ShippedWorkspace.Owner;
import dev.capability.testing.HostPrograms;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The formats are what real tools read and write: GNU {@code tar} extracts the input archive as
 * the repository it was written from, and the archive it creates of the changed writable roots is
 * applied to the repository.
 */
class RealTarRoundTripTest {
  private static final Path TAR = HostPrograms.find("tar");

  @TempDir Path base;

  @Test
  void gnuTarExtractsTheInputAndItsArchiveOfTheRootsIsApplied() throws Exception {
    Path repository = base.resolve("repo");
    String longName = "src/" + "a-rather-long-directory-name/".repeat(5) + "Caf\u00e9.java";
    RepositoryTrees.write(repository.resolve(".git/HEAD"), "ref: refs/heads/main\n");
    RepositoryTrees.write(repository.resolve("src/Main.java"), "class Main {}\n");
    RepositoryTrees.write(repository.resolve(longName), "class Cafe {}\n");
    RepositoryTrees.write(repository.resolve("build/stale.txt"), "stale\n");
    RepositoryTrees.write(repository.resolve("run.sh"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(repository.resolve("run.sh"), PosixFilePermissions.fromString("rwxr-x---"));
    RepositoryTrees.write(repository.resolve("private.txt"), "only mine\n");
    Files.setPosixFilePermissions(repository.resolve("private.txt"), PosixFilePermissions.fromString("rw-------"));
    RepositoryTrees.write(repository.resolve("shared.txt"), "anyone's\n");
    Files.setPosixFilePermissions(repository.resolve("shared.txt"), PosixFilePermissions.fromString("rw-rw-rw-"));
    Files.setLastModifiedTime(repository.resolve("src/Main.java"), FileTime.from(Instant.parse("2024-01-02T03:04:05Z")));
    Files.createSymbolicLink(repository.resolve("src/link"), Path.of("Main.java"));
    Files.createSymbolicLink(repository.resolve("outside-link"), base.resolve("elsewhere"));
    RepositoryTrees.write(base.resolve("elsewhere/not-shipped"), "never\n");

    RepositoryWorkspace workspace = RepositoryWorkspace.builder(repository, "tree-hash")
        .writableRoots(List.of(repository.resolve("src"), repository.resolve("build")))
        .protectedPaths(List.of(repository.resolve(".git")))
        .build();
    Path input = base.resolve("input.tar");
    long written;
    try (OutputStream out = Files.newOutputStream(input)) {
      written = workspace.writeInput(out, new Owner(0, 0), new Owner(1000, 1000));
    }
    assertThat(written).isEqualTo(Files.size(input));

    Path sandbox = Files.createDirectory(base.resolve("sandbox"));
    run(List.of(TAR.toString(), "-x", "-f", input.toString(), "-C", sandbox.toString()));
    assertThat(sandbox.resolve("src/Main.java")).hasContent("class Main {}");
    assertThat(sandbox.resolve(longName)).hasContent("class Cafe {}");
    assertThat(Files.getLastModifiedTime(sandbox.resolve("src/Main.java")).toInstant()).isEqualTo(Instant.parse("2024-01-02T03:04:05Z"));
    assertThat(Files.getPosixFilePermissions(sandbox.resolve("run.sh"))).as("the host's permission bits")
        .isEqualTo(PosixFilePermissions.fromString("rwxr-x---"));
    assertThat(Files.getPosixFilePermissions(sandbox.resolve("private.txt"))).as("readable by its owner only, as on the host")
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(Files.getPosixFilePermissions(sandbox.resolve("shared.txt"))).as("no write for group or others")
        .isEqualTo(PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(Files.readSymbolicLink(sandbox.resolve("src/link"))).isEqualTo(Path.of("Main.java"));
    assertThat(Files.readSymbolicLink(sandbox.resolve("outside-link"))).as("a link is shipped as a link").isEqualTo(base.resolve("elsewhere"));
    assertThat(sandbox.resolve(".git/HEAD")).hasContent("ref: refs/heads/main");

    String listing = run(List.of(TAR.toString(), "--numeric-owner", "-t", "-v", "-f", input.toString()));
    assertThat(line(listing, "src/Main.java")).contains("1000/1000");
    assertThat(line(listing, " run.sh")).contains("0/0");
    assertThat(line(listing, ".git/HEAD")).as("a protected path stays read-only").contains("0/0");

    RepositoryTrees.write(sandbox.resolve("src/Main.java"), "class Main { void run() {} }\n");
    RepositoryTrees.write(sandbox.resolve("build/classes/Main.class"), "bytecode\n");
    Files.delete(sandbox.resolve("build/stale.txt"));
    RepositoryTrees.write(sandbox.resolve("run.sh"), "#!/bin/sh\nrm -rf /\n"); // outside the roots: never returned
    Path returned = base.resolve("returned.tar");
    run(List.of(TAR.toString(), "--format=posix", "-c", "-f", returned.toString(), "-C", sandbox.toString(), "./src", "./build"));

    try (InputStream in = Files.newInputStream(returned)) {
      workspace.receiveWritableRoots(in);
    }
    WorkspaceOutcome outcome = workspace.outcome();

    assertThat(outcome.status()).as(outcome.message()).isEqualTo(WorkspaceOutcome.Status.APPLIED);
    assertThat(outcome.inputBytes()).isEqualTo(written);
    assertThat(outcome.inputSha256()).isPresent();
    assertThat(outcome.returnedBytes()).isEqualTo(Files.size(returned));
    assertThat(outcome.changed()).containsExactly("src/Main.java");
    assertThat(outcome.created()).containsExactly("build/classes", "build/classes/Main.class");
    assertThat(outcome.removed()).containsExactly("build/stale.txt");
    assertThat(repository.resolve("src/Main.java")).hasContent("class Main { void run() {} }");
    assertThat(repository.resolve(longName)).hasContent("class Cafe {}");
    assertThat(repository.resolve("run.sh")).hasContent("#!/bin/sh");
    assertThat(Files.isSymbolicLink(repository.resolve("src/link"))).isTrue();
    assertThat(Files.getPosixFilePermissions(repository.resolve("build/classes/Main.class"), LinkOption.NOFOLLOW_LINKS))
        .isEqualTo(PosixFilePermissions.fromString("rw-r--r--"));
  }

  private static String line(String listing, String name) {
    return listing.lines().filter(l -> l.endsWith(name)).findFirst().orElseThrow(() -> new AssertionError(name + " not in\n" + listing));
  }

  private static String run(List<String> argv) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(new ArrayList<>(argv)).redirectErrorStream(true).start();
    process.getOutputStream().close();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    process.getInputStream().transferTo(output);
    int exit = process.waitFor();
    String text = output.toString(StandardCharsets.UTF_8);
    assertThat(exit).as("%s: %s", argv, text).isZero();
    return text;
  }
}
