package dev.capability.acquire.internal;

import dev.capability.acquire.AcquisitionCodes;
import dev.capability.acquire.AcquisitionRefusedException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * A content-addressed store: {@code <root>/sha256/<hex>}. Downloads are staged in {@code
 * <root>/tmp} under a size limit, hashed while they stream, and moved into place only when
 * accepted; a discarded stage leaves nothing behind.
 */
public final class ContentStore {
  /** The digests computed while staging, by algorithm name as in checksum file suffixes. */
  public static final String[] ALGORITHMS = {"sha512", "sha256", "sha1", "md5"};

  private final Path root;

  public ContentStore(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  public Path root() {
    return root;
  }

  /** Bytes staged in a temporary file, with their size and digests. */
  public record Staged(Path file, long size, Map<String, String> digests) {
    public Staged {
      digests = Map.copyOf(digests);
    }

    public String sha256() {
      return digests.get("sha256");
    }
  }

  /** Streams {@code in} into a temporary file; refuses, leaving nothing, past {@code maxBytes}. */
  public Staged stage(InputStream in, long maxBytes, String what) {
    Path tmp;
    try {
      Files.createDirectories(root.resolve("tmp"));
      tmp = Files.createTempFile(root.resolve("tmp"), "download-", ".part");
    } catch (IOException e) {
      throw new AcquisitionRefusedException(AcquisitionCodes.STORE_FAILED, "cannot stage a download in " + root + ": " + e.getMessage(), e);
    }
    boolean staged = false;
    try (in; OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      Map<String, MessageDigest> digests = new LinkedHashMap<>();
      for (String algorithm : ALGORITHMS) {
        digests.put(algorithm, digest(algorithm));
      }
      byte[] buffer = new byte[64 * 1024];
      long size = 0;
      int n;
      while ((n = in.read(buffer)) >= 0) {
        size += n;
        if (size > maxBytes) {
          throw new AcquisitionRefusedException(
              AcquisitionCodes.DOWNLOAD_TOO_LARGE, what + " is larger than the limit of " + maxBytes + " bytes");
        }
        out.write(buffer, 0, n);
        for (MessageDigest digest : digests.values()) {
          digest.update(buffer, 0, n);
        }
      }
      Map<String, String> hex = new LinkedHashMap<>();
      digests.forEach((name, digest) -> hex.put(name, HexFormat.of().formatHex(digest.digest())));
      staged = true;
      return new Staged(tmp, size, hex);
    } catch (IOException e) {
      throw new AcquisitionRefusedException(AcquisitionCodes.SOURCE_UNAVAILABLE, "cannot download " + what + ": " + e.getMessage(), e);
    } finally {
      if (!staged) {
        deleteQuietly(tmp);
      }
    }
  }

  private Path commit(Staged staged) {
    Path target = root.resolve("sha256").resolve(staged.sha256());
    try {
      Files.createDirectories(target.getParent());
      try {
        Files.move(staged.file(), target, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException e) {
        // The same bytes are already stored under their digest.
        discard(staged);
      } catch (AtomicMoveNotSupportedException e) {
        throw new AcquisitionRefusedException(AcquisitionCodes.STORE_FAILED, "the store " + root + " cannot move files atomically", e);
      }
      if (Files.exists(target) && !target.toFile().setReadOnly()) {
        throw new AcquisitionRefusedException(AcquisitionCodes.STORE_FAILED, "cannot make " + target + " read-only");
      }
      return target;
    } catch (IOException e) {
      discard(staged);
      throw new AcquisitionRefusedException(AcquisitionCodes.STORE_FAILED, "cannot store " + target + ": " + e.getMessage(), e);
    }
  }

  /**
   * Stores the staged file and, beside it, {@code <root>/observations/<sha256>.json}. The record
   * is written before the package is moved into place and moved beside it right after, so a
   * failure to write it stores nothing.
   */
  public Path commit(Staged staged, Function<Path, String> record) {
    Path target = root.resolve("sha256").resolve(staged.sha256());
    Path recordFile = root.resolve("observations").resolve(staged.sha256() + ".json");
    Path tmpRecord;
    try {
      Files.createDirectories(recordFile.getParent());
      tmpRecord = Files.createTempFile(root.resolve("tmp"), "record-", ".part");
      Files.writeString(tmpRecord, record.apply(target));
    } catch (IOException e) {
      throw new AcquisitionRefusedException(AcquisitionCodes.STORE_FAILED, "cannot write the record " + recordFile + ": " + e.getMessage(), e);
    }
    try {
      Path stored = commit(staged);
      Files.move(tmpRecord, recordFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return stored;
    } catch (IOException e) {
      throw new AcquisitionRefusedException(AcquisitionCodes.STORE_FAILED, "cannot store the record " + recordFile + ": " + e.getMessage(), e);
    } finally {
      deleteQuietly(tmpRecord);
    }
  }

  /** Deletes a staged file that was not accepted. */
  public void discard(Staged staged) {
    deleteQuietly(staged.file());
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A leftover temporary file is never addressed by digest, so it can never be mistaken for an accepted package.
    }
  }

  private static MessageDigest digest(String name) {
    String algorithm = switch (name) {
      case "sha512" -> "SHA-512";
      case "sha256" -> "SHA-256";
      case "sha1" -> "SHA-1";
      case "md5" -> "MD5";
      default -> throw new IllegalArgumentException(name);
    };
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is missing from this JDK", e);
    }
  }
}
