package dev.capability.backend.docker;

import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.ShippedWorkspace;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * A plain {@link ShippedWorkspace} for the backend's own tests, standing in for the kernel's: it
 * ships the repository with the host's permission bits (without write for group and others
 * outside the writable roots), and applies
 * a returned archive only when every entry is a directory or regular file inside a writable root,
 * with no {@code ..} and no absolute name; otherwise it records the refusal and applies nothing.
 */
final class PlainShippedWorkspace implements ShippedWorkspace {
  private final Path repository;
  private final List<Path> writableRoots;
  private final long maxInputBytes;
  private final long maxReturnBytes;
  private volatile Optional<String> refusal = Optional.empty();
  private volatile boolean received;

  PlainShippedWorkspace(Path repository, List<Path> writableRoots, long maxInputBytes, long maxReturnBytes) {
    this.repository = repository;
    this.writableRoots = writableRoots.stream().map(repository::relativize).toList();
    this.maxInputBytes = maxInputBytes;
    this.maxReturnBytes = maxReturnBytes;
  }

  /** Why the returned archive was refused; empty when it was applied or none came back. */
  Optional<String> refusal() {
    return refusal;
  }

  /** Whether an archive came back at all. */
  boolean received() {
    return received;
  }

  @Override
  public String inputTreeHash() {
    return "0".repeat(64);
  }

  @Override
  public List<Path> writableRoots() {
    return writableRoots;
  }

  @Override
  public long maxInputBytes() {
    return maxInputBytes;
  }

  @Override
  public long maxReturnBytes() {
    return maxReturnBytes;
  }

  @Override
  public long writeInput(OutputStream out, Owner readOnlyOwner, Owner writableOwner) throws IOException {
    Counting counting = new Counting(out);
    TarArchiveOutputStream tar = new TarArchiveOutputStream(counting);
    tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
    tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(repository)) {
      paths = walk.sorted().toList();
    }
    for (Path path : paths) {
      Path relative = repository.relativize(path);
      boolean writable = writableRoots.stream().anyMatch(root -> relative.startsWith(root));
      Owner owner = writable ? writableOwner : readOnlyOwner;
      String name = relative.toString().isEmpty() ? "./" : relative.toString();
      TarArchiveEntry entry;
      if (Files.isSymbolicLink(path)) {
        entry = new TarArchiveEntry(name, TarArchiveEntry.LF_SYMLINK);
        entry.setLinkName(Files.readSymbolicLink(path).toString());
      } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
        entry = new TarArchiveEntry(name.endsWith("/") ? name : name + "/");
        entry.setMode(040000 | mode(path, writable));
      } else if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
        entry = new TarArchiveEntry(name);
        entry.setSize(Files.size(path));
        entry.setMode(0100000 | mode(path, writable));
      } else {
        continue;
      }
      entry.setIds(owner.uid(), owner.gid());
      tar.putArchiveEntry(entry);
      if (entry.isFile()) {
        Files.copy(path, tar);
      }
      tar.closeArchiveEntry();
      if (counting.count > maxInputBytes) {
        throw new LaunchFailedException("the repository exceeds " + maxInputBytes + " bytes");
      }
    }
    tar.finish();
    tar.flush();
    return counting.count;
  }

  /** The host's permission bits; outside the writable roots without write for group and others. */
  private static int mode(Path path, boolean writable) throws IOException {
    int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
    return writable ? mode : mode & ~0022;
  }

  @Override
  public void receiveWritableRoots(InputStream in) throws IOException {
    received = true;
    List<TarArchiveEntry> entries = new ArrayList<>();
    List<byte[]> contents = new ArrayList<>();
    long bytes = 0;
    String why = null;
    TarArchiveInputStream tar = new TarArchiveInputStream(in);
    TarArchiveEntry entry;
    while ((entry = tar.getNextEntry()) != null) {
      byte[] content = tar.readAllBytes();
      bytes += content.length;
      Path name = Path.of(entry.getName()).normalize();
      if (why != null) {
        continue;
      }
      if (name.isAbsolute() || entry.getName().contains("..")) {
        why = "entry " + entry.getName() + " leaves the repository";
      } else if (!entry.isDirectory() && !entry.isFile()) {
        why = "entry " + entry.getName() + " is neither a directory nor a regular file";
      } else if (writableRoots.stream().noneMatch(root -> name.startsWith(root))) {
        why = "entry " + entry.getName() + " is outside the writable roots";
      } else if (bytes > maxReturnBytes) {
        why = "the archive exceeds " + maxReturnBytes + " bytes";
      } else {
        entries.add(entry);
        contents.add(content);
      }
    }
    if (why != null) {
      refusal = Optional.of(why);
      return;
    }
    for (Path root : writableRoots) {
      Path host = repository.resolve(root);
      try (Stream<Path> walk = Files.walk(host)) {
        for (Path old : walk.sorted(Comparator.reverseOrder()).toList()) {
          if (!old.equals(host)) {
            Files.delete(old);
          }
        }
      }
    }
    for (int i = 0; i < entries.size(); i++) {
      Path target = repository.resolve(Path.of(entries.get(i).getName()).normalize());
      if (entries.get(i).isDirectory()) {
        Files.createDirectories(target);
      } else {
        Files.createDirectories(target.getParent());
        Files.write(target, contents.get(i));
      }
    }
  }

  private static final class Counting extends java.io.FilterOutputStream {
    long count;

    Counting(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }
  }
}
