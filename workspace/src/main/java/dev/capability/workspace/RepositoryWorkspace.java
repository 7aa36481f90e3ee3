package dev.capability.workspace;

import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.ShippedWorkspace;
import dev.capability.workspace.internal.InputArchive;
import dev.capability.workspace.internal.ReturnedArchive;
import dev.capability.workspace.internal.WorkspaceLayout;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The {@link ShippedWorkspace} of a repository on this host: {@link #writeInput} writes the
 * repository as a pax tar archive, {@link #receiveWritableRoots} checks the archive a backend
 * returns entry by entry, unpacks it into a private staging directory and, only when the whole
 * archive passed, makes each writable root equal to it. {@link #outcome()} says what happened.
 *
 * <p>Protected paths (the git directories, the policy's protected paths, and any {@code .git} at
 * any depth) are shipped read-only and are never written, replaced or removed from a returned
 * archive: an entry on one refuses the whole archive. Single-use and thread-safe.
 */
public final class RepositoryWorkspace implements ShippedWorkspace {
  private final WorkspaceLayout layout;
  private final String inputTreeHash;
  private final @Nullable Map<String, FileFingerprint> expectedFiles;
  private InputArchive.@Nullable Written input;
  private @Nullable WorkspaceOutcome returned;
  private boolean writeStarted;

  private RepositoryWorkspace(Builder b) {
    this.layout = WorkspaceLayout.of(b.repository, b.writableRoots, b.protectedPaths, b.limits);
    this.inputTreeHash = b.inputTreeHash;
    this.expectedFiles = b.expectedFiles == null ? null : Map.copyOf(b.expectedFiles);
  }

  /**
   * A builder for the workspace of {@code repository}.
   *
   * @param repository the repository's directory on this host
   * @param inputTreeHash the hash of the input tree the attestation records for this run
   */
  public static Builder builder(Path repository, String inputTreeHash) {
    return new Builder(repository, inputTreeHash);
  }

  @Override
  public String inputTreeHash() {
    return inputTreeHash;
  }

  @Override
  public List<Path> writableRoots() {
    return layout.writableRootPaths();
  }

  @Override
  public long maxInputBytes() {
    return layout.limits().maxInputBytes();
  }

  @Override
  public long maxReturnBytes() {
    return layout.limits().maxReturnBytes();
  }

  /**
   * {@inheritDoc}
   *
   * @throws LaunchFailedException with {@link WorkspaceCodes#INPUT_TOO_LARGE}, {@link
   *     WorkspaceCodes#INPUT_SPECIAL_FILE}, {@link WorkspaceCodes#INPUT_CHANGED} or {@link
   *     WorkspaceCodes#INPUT_UNREADABLE}
   * @throws IllegalStateException when called a second time
   */
  @Override
  public long writeInput(OutputStream out, Owner readOnlyOwner, Owner writableOwner) throws IOException {
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(readOnlyOwner, "readOnlyOwner");
    Objects.requireNonNull(writableOwner, "writableOwner");
    synchronized (this) {
      if (writeStarted) {
        throw new IllegalStateException("the input of this workspace was already written");
      }
      writeStarted = true;
    }
    InputArchive.Written written = InputArchive.write(layout, Optional.ofNullable(expectedFiles), out, readOnlyOwner, writableOwner);
    synchronized (this) {
      input = written;
    }
    return written.bytes();
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException when an archive was already received
   */
  @Override
  public void receiveWritableRoots(InputStream tar) throws IOException {
    Objects.requireNonNull(tar, "tar");
    synchronized (this) {
      if (returned != null) {
        throw new IllegalStateException("this workspace already received its writable roots");
      }
      try {
        returned = ReturnedArchive.receive(layout, tar);
      } catch (IOException e) {
        returned = new WorkspaceOutcome(0, 0, Optional.empty(), 0, 0, WorkspaceOutcome.Status.NOT_RETURNED,
            Optional.of(WorkspaceCodes.NOT_RETURNED), "the stream of the writable roots failed: " + e.getMessage(),
            List.of(), List.of(), List.of());
        throw e;
      }
    }
  }

  /**
   * What happened so far: {@link WorkspaceOutcome.Status#NOT_RETURNED} until an archive was
   * received, then {@link WorkspaceOutcome.Status#APPLIED} or {@link WorkspaceOutcome.Status#REFUSED}.
   */
  public synchronized WorkspaceOutcome outcome() {
    long inBytes = input == null ? 0 : input.bytes();
    long inEntries = input == null ? 0 : input.entries();
    Optional<String> inSha = input == null ? Optional.empty() : Optional.of(input.sha256());
    if (returned == null) {
      return new WorkspaceOutcome(inBytes, inEntries, inSha, 0, 0, WorkspaceOutcome.Status.NOT_RETURNED,
          Optional.of(WorkspaceCodes.NOT_RETURNED), "the backend did not return the writable roots", List.of(), List.of(), List.of());
    }
    return new WorkspaceOutcome(inBytes, inEntries, inSha, returned.returnedBytes(), returned.returnedEntries(), returned.status(),
        returned.code(), returned.message(), returned.created(), returned.changed(), returned.removed());
  }

  /** Builds a {@link RepositoryWorkspace}. */
  public static final class Builder {
    private final Path repository;
    private final String inputTreeHash;
    private List<Path> writableRoots = List.of();
    private List<Path> protectedPaths = List.of();
    private WorkspaceLimits limits = WorkspaceLimits.DEFAULT;
    private @Nullable Map<String, FileFingerprint> expectedFiles;

    private Builder(Path repository, String inputTreeHash) {
      this.repository = Objects.requireNonNull(repository, "repository");
      this.inputTreeHash = Objects.requireNonNull(inputTreeHash, "inputTreeHash");
    }

    /**
     * The writable roots: absolute paths inside the repository or paths relative to it. A root
     * below another root is covered by it; the repository itself may be a root.
     */
    public Builder writableRoots(List<Path> roots) {
      this.writableRoots = new ArrayList<>(roots);
      return this;
    }

    /**
     * The paths never written from a returned archive and shipped read-only, absolute or relative
     * to the repository; those outside the repository are not shipped and are ignored. Every
     * {@code .git} at any depth is protected as well.
     */
    public Builder protectedPaths(List<Path> paths) {
      this.protectedPaths = new ArrayList<>(paths);
      return this;
    }

    /** The bounds; {@link WorkspaceLimits#DEFAULT} unless set. */
    public Builder limits(WorkspaceLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * The regular files the run's snapshot saw, by repository-relative POSIX path. When set, a
     * file outside the git directories that is not among them, or whose stat data (or hashed
     * content) differs from its fingerprint, fails the launch with {@link WorkspaceCodes#INPUT_CHANGED}.
     */
    public Builder expectedFiles(Map<String, FileFingerprint> files) {
      this.expectedFiles = Map.copyOf(files);
      return this;
    }

    /**
     * @throws IllegalArgumentException when the repository is not a directory or a root lies
     *     outside it
     */
    public RepositoryWorkspace build() {
      return new RepositoryWorkspace(this);
    }
  }
}
