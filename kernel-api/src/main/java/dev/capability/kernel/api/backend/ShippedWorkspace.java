package dev.capability.kernel.api.backend;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The repository shipped to a backend that cannot bind it (a remote Docker daemon, a Kubernetes
 * pod). The kernel gives one in {@link LaunchSpec#workspace()} exactly when the backend advertises
 * {@link IsolationCapability#REMOTE_WORKSPACE} and the run has a repository; the backend then
 * binds nothing of the host and instead:
 *
 * <ol>
 *   <li>writes the input with {@link #writeInput} into the sandbox at {@link
 *       LaunchSpec#repository()}'s path (the command sees the same paths as a local run);
 *   <li>runs the command;
 *   <li>reads the writable roots back as one tar archive ({@link #writableRoots()}, paths relative
 *       to the repository) and hands it to {@link #receiveWritableRoots} <em>before</em> it
 *       returns its {@link LaunchResult}, also when the command failed or timed out.
 * </ol>
 *
 * <p>The kernel, not the backend, decides what of the returned archive reaches the host: it
 * unpacks it under the checks a hostile package gets (no traversal, no absolute names, no links
 * out of their root, no hard links, devices or fifos, entry and byte limits) into a staging
 * directory, applies it to the writable roots only when the whole archive passed, and then audits
 * the repository as after a local run. Implementations are thread-safe and single-use.
 */
public interface ShippedWorkspace {

  /** The hash of the shipped input tree, as the attestation records it. */
  String inputTreeHash();

  /** The writable roots, relative to the repository, in the order of {@link LaunchSpec#writableRoots()}. */
  List<Path> writableRoots();

  /** The most bytes {@link #writeInput} writes; a larger repository fails the launch before anything is sent. */
  long maxInputBytes();

  /** The most bytes a returned archive may hold; a larger one is refused and nothing of it is applied. */
  long maxReturnBytes();

  /**
   * Writes the repository as an uncompressed POSIX (pax) tar archive: names relative to the
   * repository root, directories before their contents, regular files, directories and symbolic
   * links only. Entries inside a writable root are owned by {@code writableOwner}, every other
   * entry by {@code readOnlyOwner}, so a sandbox user that is not {@code readOnlyOwner} can write
   * only its writable roots. Directories leading to a writable root are not writable.
   *
   * @return the bytes written
   * @throws IOException when the stream fails
   * @throws LaunchFailedException when the input exceeds {@link #maxInputBytes()} or cannot be read
   */
  long writeInput(OutputStream out, Owner readOnlyOwner, Owner writableOwner) throws IOException;

  /**
   * Takes the archive of the writable roots the backend brought back. Its names are relative to
   * the repository root (for example {@code src/Main.java}, or {@code ./src/Main.java}). Reads
   * it to its end; a hostile or oversized archive is not an exception but a refusal the kernel
   * records in the result and attestation, with nothing applied.
   *
   * @throws IOException when the stream fails before the archive ended (nothing is applied)
   */
  void receiveWritableRoots(InputStream tar) throws IOException;

  /** A numeric owner for tar entries. */
  record Owner(int uid, int gid) {
    public Owner {
      if (uid < 0 || gid < 0) {
        throw new IllegalArgumentException("uid and gid must not be negative, were " + uid + ":" + gid);
      }
    }
  }
}
