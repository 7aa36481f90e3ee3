package dev.capability.kernel.core.internal.authority;

import static dev.capability.kernel.api.authority.AuthorityCodes.LAYER_NOT_FOUND;
import static dev.capability.kernel.api.authority.AuthorityCodes.LAYER_PATH_INVALID;
import static dev.capability.kernel.api.authority.AuthorityCodes.LAYER_UNREADABLE;

import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * Reads layer files. A layer can only narrow the operator's authority, so unlike the policy file
 * it may live in the repository and belong to anyone; what is checked is that the path means
 * exactly what it says and that reading it cannot hang or exhaust memory: no {@code .} or
 * {@code ..} segments, no leading {@code ~}, no symbolic link anywhere on the path, a regular
 * file, at most {@value #MAX_BYTES} bytes of UTF-8.
 */
public final class LayerFiles {
  private LayerFiles() {}

  /** The largest layer file read: 256 KiB. */
  public static final int MAX_BYTES = 256 * 1024;

  /**
   * The layer of {@code kind} in {@code file}; relative paths are taken against the process's
   * working directory.
   *
   * @throws AuthorityException {@code LAYER_PATH_INVALID}, {@code LAYER_NOT_FOUND},
   *     {@code LAYER_UNREADABLE}, {@code LAYER_INVALID} or {@code SCOPE_PATTERN_INVALID}
   */
  public static AuthorityLayer read(Kind kind, Path file) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(file, "file");
    String what = "the " + kind.layerName() + " file " + Printable.quote(file.toString());
    if (file.toString().startsWith("~")) {
      throw new AuthorityException(LAYER_PATH_INVALID, what + " starts with ~, which nothing here expands; give the full path");
    }
    for (Path name : file) {
      if (name.toString().equals(".") || name.toString().equals("..")) {
        throw new AuthorityException(LAYER_PATH_INVALID, what + " has a " + name + " segment; give the path without it");
      }
    }
    Path absolute = file.toAbsolutePath();
    Path real;
    try {
      real = absolute.toRealPath();
    } catch (NoSuchFileException e) {
      throw new AuthorityException(LAYER_NOT_FOUND, what + " does not exist", e);
    } catch (IOException e) {
      throw new AuthorityException(LAYER_UNREADABLE, what + " cannot be resolved: " + e.getMessage(), e);
    }
    if (!real.equals(absolute)) {
      throw new AuthorityException(LAYER_PATH_INVALID, what + " goes through a symbolic link; its real path is "
          + Printable.quote(real.toString()) + ", give that");
    }
    return LayerJson.read(kind, readText(real, what), real.toString());
  }

  private static String readText(Path file, String what) {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new AuthorityException(LAYER_UNREADABLE, what + " cannot be read: " + e.getMessage(), e);
    }
    if (!attributes.isRegularFile()) {
      throw new AuthorityException(LAYER_UNREADABLE, what + " is not a regular file");
    }
    if (attributes.size() > MAX_BYTES) {
      throw new AuthorityException(LAYER_UNREADABLE, what + " has " + attributes.size() + " bytes; at most " + MAX_BYTES + " are read");
    }
    try (SeekableByteChannel channel = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      ByteBuffer buffer = ByteBuffer.allocate(MAX_BYTES + 1);
      int read;
      do {
        read = channel.read(buffer);
      } while (read > 0 && buffer.hasRemaining());
      if (buffer.position() > MAX_BYTES) {
        throw new AuthorityException(LAYER_UNREADABLE, what + " grew past " + MAX_BYTES + " bytes while it was read");
      }
      buffer.flip();
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(buffer)
          .toString();
    } catch (CharacterCodingException e) {
      throw new AuthorityException(LAYER_UNREADABLE, what + " is not UTF-8", e);
    } catch (IOException e) {
      throw new AuthorityException(LAYER_UNREADABLE, what + " cannot be read: " + e.getMessage(), e);
    }
  }
}
