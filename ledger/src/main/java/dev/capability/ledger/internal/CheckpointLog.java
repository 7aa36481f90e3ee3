package dev.capability.ledger.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append-only file of signed checkpoints, one canonical JSON line each. Writers from several
 * processes take an exclusive file lock for each append and force the line to disk before
 * returning. A line cut short by a crash (no newline) is ignored by readers and cut off by the
 * next writer; nothing else is ever removed or rewritten.
 */
public final class CheckpointLog {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointLog.class);
  private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");
  /** Longer than any checkpoint line; a longer unterminated tail means the file is not ours. */
  private static final int MAX_TORN_TAIL = 4096;
  private static final Set<String> MEMBERS = Set.of("format", "ledgerId", "sequence", "headHash", "time", "keyId", "signature");
  /** File locks belong to the process; threads of one process take this lock first. */
  private static final ConcurrentHashMap<Path, Object> IN_PROCESS_LOCKS = new ConcurrentHashMap<>();

  private final Path file;

  public CheckpointLog(Path file) {
    this.file = file.toAbsolutePath();
  }

  public Path file() {
    return file;
  }

  /** Appends one checkpoint and forces it to disk. */
  public void append(Checkpoint checkpoint) {
    byte[] line = (checkpoint.line() + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (IN_PROCESS_LOCKS.computeIfAbsent(file, f -> new Object())) {
      try {
        boolean created = !Files.exists(file);
        // Never through a symbolic link: the torn-tail repair below truncates, and must only ever truncate this file.
        try (FileChannel channel = FileChannel.open(file,
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")))) {
          FileLock lock = channel.lock();
          try {
            long end = cutTornTail(channel);
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
              end += channel.write(buffer, end);
            }
            channel.force(true);
          } finally {
            lock.release();
          }
        }
        if (created) {
          SafeFiles.forceDirectory(file.getParent());
        }
      } catch (IOException e) {
        throw new LedgerException(LedgerCodes.LEDGER_CHECKPOINT_IO, "cannot append a checkpoint to " + file + ": " + e.getMessage(), e);
      }
    }
  }

  /** Drops a final line without a newline, left by a crash mid-write; returns the new size. */
  private long cutTornTail(FileChannel channel) throws IOException {
    long size = channel.size();
    if (size == 0) {
      return 0;
    }
    long keep = size;
    ByteBuffer one = ByteBuffer.allocate(1);
    while (keep > 0) {
      one.clear();
      channel.read(one, keep - 1);
      if (one.get(0) == '\n') {
        break;
      }
      keep--;
    }
    if (size - keep > MAX_TORN_TAIL) {
      throw new IOException("it ends in " + (size - keep) + " bytes without a newline, more than a checkpoint line;"
          + " it does not look like a checkpoint file, so nothing was cut or appended");
    }
    if (keep < size) {
      LOG.warn("cutting {} bytes of an unfinished checkpoint line from the end of {}", size - keep, file);
      channel.truncate(keep);
      channel.force(true);
    }
    return keep;
  }

  /** What the file holds: the checkpoints that parse, and what is wrong with the lines that do not. */
  public record Contents(boolean exists, List<Checkpoint> checkpoints, List<String> problems) {
    public Contents {
      checkpoints = List.copyOf(checkpoints);
      problems = List.copyOf(problems);
    }
  }

  /** Reads every complete line, streaming. Signatures are not checked here. */
  public Contents read() {
    List<Checkpoint> checkpoints = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS))) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      int number = 0;
      int b;
      while ((b = in.read()) >= 0) {
        if (b != '\n') {
          line.write(b);
          continue;
        }
        number++;
        try {
          checkpoints.add(parse(line.toString(StandardCharsets.UTF_8)));
        } catch (IllegalArgumentException e) {
          problems.add("line " + number + " of " + file + ": " + e.getMessage());
        }
        line.reset();
      }
      // Bytes after the last newline are a line a crash cut short; the next writer removes them.
    } catch (NoSuchFileException e) {
      return new Contents(false, checkpoints, problems);
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_CHECKPOINT_IO, "cannot read the checkpoints " + file + ": " + e.getMessage(), e);
    }
    return new Contents(true, checkpoints, problems);
  }

  private static Checkpoint parse(String line) {
    JsonNode node;
    try {
      node = Json.MAPPER.readTree(line);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON");
    }
    if (!(node instanceof ObjectNode object)) {
      throw new IllegalArgumentException("not a JSON object");
    }
    Set<String> names = new java.util.HashSet<>();
    object.fieldNames().forEachRemaining(names::add);
    if (!names.equals(MEMBERS)) {
      throw new IllegalArgumentException("members must be exactly " + new java.util.TreeSet<>(MEMBERS) + ", were " + new java.util.TreeSet<>(names));
    }
    if (!Checkpoint.FORMAT.equals(text(object, "format"))) {
      throw new IllegalArgumentException("format is not " + Checkpoint.FORMAT);
    }
    JsonNode sequence = object.get("sequence");
    if (!sequence.isIntegralNumber() || !sequence.canConvertToLong() || sequence.asLong() < 0) {
      throw new IllegalArgumentException("sequence is not a non-negative integer");
    }
    String headHash = text(object, "headHash");
    if (!HASH.matcher(headHash).matches()) {
      throw new IllegalArgumentException("headHash is not a lower-case hex SHA-256");
    }
    return new Checkpoint(text(object, "ledgerId"), sequence.asLong(), headHash, text(object, "time"), text(object, "keyId"),
        text(object, "signature"));
  }

  private static String text(ObjectNode object, String name) {
    JsonNode value = object.get(name);
    if (!value.isTextual()) {
      throw new IllegalArgumentException(name + " is not a string");
    }
    return value.asText();
  }
}
