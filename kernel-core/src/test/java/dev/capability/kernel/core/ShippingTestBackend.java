package dev.capability.kernel.core;

import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.ShippedWorkspace;
import dev.capability.testing.HostPrograms;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A backend that cannot bind the repository, as a remote one: it advertises {@code
 * REMOTE_WORKSPACE}, extracts the shipped input with real GNU {@code tar} into a directory of its
 * own, runs the command there with {@link ProcessBuilder} (the repository's paths mapped to that
 * directory), and tars the writable roots back with real {@code tar}, or hands back the archive a
 * test crafted, or nothing.
 */
final class ShippingTestBackend implements ExecutionBackend {
  private static final Path TAR = HostPrograms.find("tar");

  private final Path scratch;
  private final @Nullable byte[] crafted;
  private final boolean returns;
  /** The directory the command last ran in, and the input archive it was shipped. */
  Path sandbox;
  Path input;

  private ShippingTestBackend(Path scratch, @Nullable byte[] crafted, boolean returns) {
    this.scratch = scratch;
    this.crafted = crafted;
    this.returns = returns;
  }

  /** Returns the writable roots as real {@code tar} archives them. */
  static ShippingTestBackend honest(Path scratch) {
    return new ShippingTestBackend(scratch, null, true);
  }

  /** Returns {@code archive} whatever the command did. */
  static ShippingTestBackend returning(Path scratch, byte[] archive) {
    return new ShippingTestBackend(scratch, archive.clone(), true);
  }

  /** Never hands the writable roots back. */
  static ShippingTestBackend returningNothing(Path scratch) {
    return new ShippingTestBackend(scratch, null, false);
  }

  @Override
  public String id() {
    return "shipping-test";
  }

  @Override
  public Set<IsolationCapability> capabilities() {
    return Set.of(IsolationCapability.SESSION_TERMINATION, IsolationCapability.REMOTE_WORKSPACE);
  }

  @Override
  public LaunchResult launch(LaunchSpec spec) {
    ShippedWorkspace workspace = spec.workspace().orElseThrow(() -> new AssertionError("the kernel shipped no workspace"));
    try {
      sandbox = Files.createTempDirectory(scratch, "sandbox-");
      input = Files.createTempFile(scratch, "input-", ".tar");
      try (OutputStream out = Files.newOutputStream(input)) {
        workspace.writeInput(out, new ShippedWorkspace.Owner(0, 0), new ShippedWorkspace.Owner(1000, 1000));
      }
      run(List.of(TAR.toString(), "-x", "-f", input.toString(), "-C", sandbox.toString()));
      Path repository = spec.repository().orElseThrow();
      Instant started = Instant.now();
      List<String> argv = new ArrayList<>();
      argv.add(spec.executable().path().toString());
      argv.addAll(spec.arguments());
      ProcessBuilder command = new ProcessBuilder(argv).directory(sandbox.resolve(repository.relativize(spec.workingDirectory())).toFile());
      command.environment().clear();
      command.environment().putAll(spec.environment());
      Process process = command.start();
      process.getOutputStream().close();
      byte[] stdout = process.getInputStream().readAllBytes();
      byte[] stderr = process.getErrorStream().readAllBytes();
      boolean ended = process.waitFor(spec.timeout().toMillis(), TimeUnit.MILLISECONDS);
      if (!ended) {
        process.destroyForcibly().waitFor();
      }
      if (returns) {
        try (InputStream back = crafted != null ? new ByteArrayInputStream(crafted) : Files.newInputStream(archiveRoots(workspace))) {
          workspace.receiveWritableRoots(back);
        }
      }
      return new LaunchResult(ended ? OptionalInt.of(process.exitValue()) : OptionalInt.empty(), !ended, false,
          CapturedOutput.of(stdout, false), CapturedOutput.of(stderr, false), started, Instant.now(), ended ? "none" : "kill");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchFailedException("interrupted", e);
    }
  }

  private Path archiveRoots(ShippedWorkspace workspace) throws IOException, InterruptedException {
    Path returned = Files.createTempFile(scratch, "returned-", ".tar");
    List<String> argv = new ArrayList<>(List.of(TAR.toString(), "--format=posix", "--exclude=.git", "-c", "-f", returned.toString(),
        "-C", sandbox.toString()));
    for (Path root : workspace.writableRoots()) {
      argv.add("./" + root);
    }
    run(argv);
    return returned;
  }

  private static void run(List<String> argv) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IOException(argv + " failed: " + output);
    }
  }

  @Override
  public void close() {}
}
