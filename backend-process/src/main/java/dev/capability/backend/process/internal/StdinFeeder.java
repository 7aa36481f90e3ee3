package dev.capability.backend.process.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the spec's input to the command's stdin and closes it, on its own thread, so that a
 * command that never reads cannot block the launcher.
 */
final class StdinFeeder implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(StdinFeeder.class);
  // Small writes release the stream's lock between chunks, so the JDK can close the pipe once
  // the command exits instead of waiting behind one huge blocked write.
  private static final int CHUNK = 8 * 1024;

  private final OutputStream stdin;
  private final byte[] input;

  StdinFeeder(OutputStream stdin, byte[] input) {
    this.stdin = Objects.requireNonNull(stdin, "stdin");
    this.input = Objects.requireNonNull(input, "input").clone();
  }

  @Override
  public void run() {
    try (OutputStream out = stdin) {
      for (int offset = 0; offset < input.length; offset += CHUNK) {
        out.write(input, offset, Math.min(CHUNK, input.length - offset));
      }
    } catch (IOException e) {
      // A command may exit or close stdin without reading all of it; that is its business.
      LOG.debug("stdin closed before all {} bytes were written: {}", input.length, e.getMessage());
    }
  }
}
