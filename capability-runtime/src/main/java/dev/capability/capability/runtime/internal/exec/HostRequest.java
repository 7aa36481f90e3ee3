package dev.capability.capability.runtime.internal.exec;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.BufferUnderflowException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the executor asks of the capability host: which module (by path and integrity), which entry
 * class, the input, the granted paths, which hooks to run and whether the capability may start
 * programs ({@code process.spawn} was granted).
 *
 * <p>It travels as a small length-prefixed binary record rather than JSON so that the child JVM
 * needs no JSON library: loading one costs the child more than anything else it does. The format
 * is {@code "CKH2"}, then each string as a big-endian {@code int} byte count and strict UTF-8, each
 * list as an {@code int} count and its strings, each flag as one byte 0 or 1; nothing may follow.
 */
public record HostRequest(
    String module,
    String integrity,
    String entry,
    String input,
    List<Path> readable,
    List<Path> writable,
    boolean verify,
    boolean rollback,
    boolean startsPrograms) {
  public static final int MAX_BYTES = 2 << 20;
  private static final int MAX_PATHS = 1024;
  private static final byte[] MAGIC = {'C', 'K', 'H', '2'};

  public HostRequest {
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(integrity, "integrity");
    Objects.requireNonNull(entry, "entry");
    Objects.requireNonNull(input, "input");
    readable = absolute(readable, "readable");
    writable = absolute(writable, "writable");
  }

  private static List<Path> absolute(List<Path> paths, String field) {
    for (Path path : Objects.requireNonNull(paths, field)) {
      if (!path.isAbsolute()) {
        throw new IllegalArgumentException(field + " paths must be absolute, not " + path);
      }
    }
    return List.copyOf(paths);
  }

  /** The request's bytes, as {@link #decode} reads them. */
  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.write(MAGIC);
      for (String text : List.of(module, integrity, entry, input)) {
        writeString(out, text);
      }
      for (List<Path> paths : List.of(readable, writable)) {
        out.writeInt(paths.size());
        for (Path path : paths) {
          writeString(out, path.toString());
        }
      }
      out.writeByte(verify ? 1 : 0);
      out.writeByte(rollback ? 1 : 0);
      out.writeByte(startsPrograms ? 1 : 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode into memory", e);
    }
    return bytes.toByteArray();
  }

  private static void writeString(DataOutputStream out, String text) throws IOException {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    out.writeInt(utf8.length);
    out.write(utf8);
  }

  /** Decodes a request; anything malformed, truncated, oversized or followed by more bytes is refused. */
  public static HostRequest decode(byte[] bytes) {
    if (bytes.length > MAX_BYTES) {
      throw new IllegalArgumentException("the request is larger than " + MAX_BYTES + " bytes");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      byte[] magic = new byte[MAGIC.length];
      in.get(magic);
      if (!java.util.Arrays.equals(magic, MAGIC)) {
        throw new IllegalArgumentException("the request does not start with CKH2");
      }
      String module = readString(in, "module");
      String integrity = readString(in, "integrity");
      String entry = readString(in, "entry");
      String input = readString(in, "input");
      List<Path> readable = readPaths(in, "readable");
      List<Path> writable = readPaths(in, "writable");
      boolean verify = readFlag(in, "verify");
      boolean rollback = readFlag(in, "rollback");
      boolean startsPrograms = readFlag(in, "startsPrograms");
      if (in.hasRemaining()) {
        throw new IllegalArgumentException(in.remaining() + " bytes follow the request");
      }
      return new HostRequest(module, integrity, entry, input, readable, writable, verify, rollback, startsPrograms);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("the request is truncated", e);
    }
  }

  private static String readString(ByteBuffer in, String field) {
    int length = in.getInt();
    if (length < 0 || length > in.remaining()) {
      throw new IllegalArgumentException("field '" + field + "' claims " + length + " bytes; " + in.remaining() + " remain");
    }
    ByteBuffer slice = in.slice().limit(length);
    in.position(in.position() + length);
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(slice)
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("field '" + field + "' is not well-formed UTF-8", e);
    }
  }

  private static List<Path> readPaths(ByteBuffer in, String field) {
    int count = in.getInt();
    if (count < 0 || count > MAX_PATHS) {
      throw new IllegalArgumentException("field '" + field + "' claims " + count + " paths; at most " + MAX_PATHS);
    }
    List<Path> paths = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Path path = Path.of(readString(in, field));
      if (!path.isAbsolute()) {
        throw new IllegalArgumentException("field '" + field + "' must hold absolute paths, not " + path);
      }
      paths.add(path);
    }
    return paths;
  }

  private static boolean readFlag(ByteBuffer in, String field) {
    byte flag = in.get();
    if (flag != 0 && flag != 1) {
      throw new IllegalArgumentException("field '" + field + "' must be 0 or 1, not " + flag);
    }
    return flag == 1;
  }
}
