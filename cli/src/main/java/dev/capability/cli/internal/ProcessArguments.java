package dev.capability.cli.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The CLI's arguments as UTF-8 text, and which of them were not UTF-8.
 *
 * <p>The JVM decodes {@code main}'s arguments with the platform encoding ({@code sun.jnu.encoding})
 * before any code runs, turning bytes it cannot decode into U+FFFD, so a command-line argument
 * with invalid UTF-8 would reach the kernel as different text. On Linux the raw bytes are in
 * {@code /proc/self/cmdline}: when its last arguments decode, the way the JVM decoded them, to
 * exactly {@code main}'s arguments, each is decoded again as strict UTF-8 (which also repairs
 * arguments a non-UTF-8 locale garbled), and one that is not UTF-8 is marked. Without the raw
 * bytes (another system, an {@code @argfile}), every argument holding U+FFFD is marked, since
 * nothing tells a typed U+FFFD from a replaced byte.
 *
 * @param arguments the arguments, decoded as UTF-8 wherever the raw bytes were
 * @param notUtf8 the arguments (as decoded) whose bytes were not UTF-8, or that may not have been
 */
public record ProcessArguments(List<String> arguments, Set<String> notUtf8) {
  private static final Path CMDLINE = Path.of("/proc/self/cmdline");
  private static final char REPLACEMENT = '\uFFFD';

  public ProcessArguments {
    arguments = List.copyOf(arguments);
    notUtf8 = Set.copyOf(notUtf8);
  }

  /** The arguments {@code main} received in this process, checked against the raw bytes. */
  public static ProcessArguments ofThisProcess(String[] mainArguments) {
    return of(mainArguments, readCommandLine(), Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8")));
  }

  /**
   * {@code mainArguments} checked against {@code commandLine}, the raw NUL-terminated arguments of
   * the process, which the JVM decoded with {@code platform}.
   */
  static ProcessArguments of(String[] mainArguments, Optional<byte[]> commandLine, Charset platform) {
    Optional<List<byte[]>> raw = commandLine.map(ProcessArguments::split)
        .filter(all -> all.size() >= mainArguments.length)
        .map(all -> all.subList(all.size() - mainArguments.length, all.size()))
        .filter(tail -> decodesTo(tail, mainArguments, platform));
    if (raw.isEmpty()) {
      Set<String> suspect = new HashSet<>();
      for (String argument : mainArguments) {
        if (argument.indexOf(REPLACEMENT) >= 0) {
          suspect.add(argument);
        }
      }
      return new ProcessArguments(List.of(mainArguments), suspect);
    }
    String[] arguments = new String[mainArguments.length];
    Set<String> notUtf8 = new HashSet<>();
    for (int i = 0; i < arguments.length; i++) {
      Optional<String> utf8 = strictUtf8(raw.get().get(i));
      arguments[i] = utf8.orElse(mainArguments[i]);
      if (utf8.isEmpty()) {
        notUtf8.add(mainArguments[i]);
      }
    }
    return new ProcessArguments(List.of(arguments), notUtf8);
  }

  private static boolean decodesTo(List<byte[]> raw, String[] arguments, Charset platform) {
    for (int i = 0; i < arguments.length; i++) {
      if (!new String(raw.get(i), platform).equals(arguments[i])) {
        return false;
      }
    }
    return true;
  }

  private static Optional<String> strictUtf8(byte[] bytes) {
    try {
      return Optional.of(StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }

  private static List<byte[]> split(byte[] commandLine) {
    List<byte[]> arguments = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < commandLine.length; i++) {
      if (commandLine[i] == 0) {
        arguments.add(Arrays.copyOfRange(commandLine, start, i));
        start = i + 1;
      }
    }
    if (start < commandLine.length) {
      arguments.add(Arrays.copyOfRange(commandLine, start, commandLine.length));
    }
    return arguments;
  }

  private static Optional<byte[]> readCommandLine() {
    try {
      return Files.isReadable(CMDLINE) ? Optional.of(Files.readAllBytes(CMDLINE)) : Optional.empty();
    } catch (IOException e) {
      // Unreadable is the same as absent: every argument holding U+FFFD is then marked.
      return Optional.empty();
    }
  }
}
