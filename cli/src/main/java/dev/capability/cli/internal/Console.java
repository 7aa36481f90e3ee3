package dev.capability.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** The CLI's streams and its JSON writer: the only code in the project that prints. */
public final class Console {

  private final InputStream in;
  private final PrintStream rawOut;
  private final PrintStream rawErr;
  private final TerminalSafeOutput safeOut;
  private final TerminalSafeOutput safeErr;
  private final PrintStream out;
  private final PrintStream err;
  private final Map<String, String> environment;
  private final Set<String> argumentsNotUtf8;
  private volatile boolean quiet;
  private volatile boolean raw;

  public Console(InputStream in, PrintStream out, PrintStream err, Map<String, String> environment) {
    this(in, out, err, environment, Set.of());
  }

  /** A console whose command-line arguments in {@code argumentsNotUtf8} were not valid UTF-8 ({@link ProcessArguments}). */
  public Console(InputStream in, PrintStream out, PrintStream err, Map<String, String> environment, Set<String> argumentsNotUtf8) {
    this.in = in;
    this.rawOut = out;
    this.rawErr = err;
    this.safeOut = new TerminalSafeOutput(out);
    this.safeErr = new TerminalSafeOutput(err);
    this.out = new PrintStream(safeOut, true, StandardCharsets.UTF_8);
    this.err = new PrintStream(safeErr, true, StandardCharsets.UTF_8);
    this.environment = Map.copyOf(environment);
    this.argumentsNotUtf8 = Set.copyOf(argumentsNotUtf8);
  }

  /** Standard output: control characters shown, not obeyed ({@link TerminalSafeOutput}), unless {@code --raw}. */
  public PrintStream out() {
    return raw ? rawOut : out;
  }

  /** Standard error, shown as {@link #out()} is. */
  public PrintStream err() {
    return raw ? rawErr : err;
  }

  /** Standard input as it is, for a protocol that owns it ({@code capability mcp}). */
  InputStream protocolIn() {
    return in;
  }

  /** Standard output byte for byte, for a protocol that owns it: nothing else may write to it then. */
  PrintStream protocolOut() {
    return rawOut;
  }

  public Map<String, String> environment() {
    return environment;
  }

  /** Set by the global {@code --raw}: the streams pass every byte as it was written. */
  void raw(boolean raw) {
    this.raw = raw;
  }

  /** Writes what the streams still hold (an unfinished character) and flushes them; call once, at the end. */
  void finish() {
    out.flush();
    err.flush();
    try {
      safeOut.finish();
      safeErr.finish();
    } catch (IOException e) {
      throw new UncheckedIOException("could not write to the terminal", e);
    }
    rawOut.flush();
    rawErr.flush();
  }

  /** Set by the global {@code --quiet}: no progress lines. */
  void quiet(boolean quiet) {
    this.quiet = quiet;
  }

  /**
   * Where a long operation reports progress: one {@code capability: ...} line on stderr per step,
   * or nowhere under {@code --quiet} or {@code --json} (JSON output is for programs, which read
   * stdout and should not have to filter stderr either).
   */
  public Consumer<String> progress(boolean json) {
    return message -> {
      if (!json && !quiet) {
        err.println("capability: " + UrlCredentials.redactedIn(message));
      }
    };
  }

  /** The whole of stdin, byte for byte, decoded as strict UTF-8. */
  public String readStdin() {
    try {
      byte[] bytes = in.readAllBytes();
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new CapabilityException(CliCodes.INPUT_NOT_UTF8, "standard input is not valid UTF-8; commands must be UTF-8 text");
    } catch (IOException e) {
      throw new UncheckedIOException("could not read standard input", e);
    }
  }

  /**
   * Refuses {@code argument}, taken from the command line, when its bytes were not valid UTF-8,
   * as {@link #readStdin()} refuses such standard input.
   *
   * @param what how the message names the argument ({@code "argv[1]"}, {@code "the command string"})
   */
  public void requireUtf8Argument(String argument, String what) {
    if (argumentsNotUtf8.contains(argument)) {
      throw new CapabilityException(CliCodes.INPUT_NOT_UTF8,
          what + " on the command line is not valid UTF-8 (the bytes that are not show as U+FFFD); commands must be UTF-8 text");
    }
  }

  /** Writes one compact JSON document and a newline to stdout. */
  public void json(Object value) {
    out.println(Json.write(value));
  }

  /** The JSON writer, made when JSON is first written: a command that prints none never loads Jackson. */
  private static final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    static String write(Object value) {
      try {
        return MAPPER.writeValueAsString(value);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("could not write JSON output", e);
      }
    }
  }

  /**
   * A JSON string literal, for plain output of arbitrary words: quotes and backslashes escaped,
   * control characters as the short escapes (newline, tab, carriage return, backspace, form feed)
   * or a six-character escape with upper-case hex digits, everything else as it is: the literal
   * Jackson writes, without loading it.
   */
  public static String quote(String s) {
    StringBuilder quoted = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        case '\t' -> quoted.append("\\t");
        case '\r' -> quoted.append("\\r");
        case '\b' -> quoted.append("\\b");
        case '\f' -> quoted.append("\\f");
        default -> {
          if (c < 0x20) {
            quoted.append(String.format("\\u%04X", (int) c));
          } else {
            quoted.append(c);
          }
        }
      }
    }
    return quoted.append('"').toString();
  }

  /** Reports an exception: {@code {"error":{...}}} on stdout with --json, one line on stderr otherwise. */
  public void error(CapabilityException e, boolean json) {
    if (json) {
      Map<String, Object> error = new LinkedHashMap<>();
      error.put("code", e.code());
      error.put("message", message(e));
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("error", error);
      json(document);
    } else {
      err.println("capability: " + e.code() + ": " + message(e));
    }
  }

  /**
   * An error's message as printed: every URL in it without credentials, whichever layer wrote it
   * (each module redacts its own messages; this is the second line).
   */
  static @Nullable String message(Throwable e) {
    String message = e.getMessage();
    return message == null ? null : UrlCredentials.redactedIn(message);
  }
}
