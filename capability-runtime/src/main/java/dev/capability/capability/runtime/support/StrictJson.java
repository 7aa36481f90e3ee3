package dev.capability.capability.runtime.support;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Parses untrusted JSON documents strictly: UTF-8 without a byte-order mark, no comments, no
 * duplicate member names, no trailing content, bounded size and nesting. Numbers keep their exact
 * decimal value.
 */
public final class StrictJson {

  /** Why a document was refused. */
  public enum Failure {
    TOO_LARGE,
    BOM,
    ENCODING,
    DUPLICATE_KEY,
    TOO_DEEP,
    SYNTAX
  }

  /** A refused document: what kind of failure and a message naming where. */
  public static final class StrictJsonException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Failure failure;

    StrictJsonException(Failure failure, String message, @Nullable Throwable cause) {
      super(message, cause);
      this.failure = failure;
    }

    public Failure failure() {
      return failure;
    }
  }

  private final int maxBytes;
  private final ObjectMapper mapper;

  public StrictJson(int maxBytes, int maxDepth) {
    this.maxBytes = maxBytes;
    JsonFactory factory =
        JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    .maxNestingDepth(maxDepth)
                    .maxStringLength(maxBytes)
                    .maxNumberLength(100)
                    .build())
            .build();
    this.mapper =
        JsonMapper.builder(factory)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();
  }

  /** Parses {@code bytes}; {@code what} names the document in messages. */
  public JsonNode parse(byte[] bytes, String what) {
    if (bytes.length > maxBytes) {
      throw new StrictJsonException(
          Failure.TOO_LARGE, what + " has " + bytes.length + " bytes; the limit is " + maxBytes, null);
    }
    if (startsWith(bytes, 0xEF, 0xBB, 0xBF) || startsWith(bytes, 0xFE, 0xFF) || startsWith(bytes, 0xFF, 0xFE)) {
      throw new StrictJsonException(Failure.BOM, what + " starts with a byte-order mark", null);
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw new StrictJsonException(Failure.ENCODING, what + " is not well-formed UTF-8", e);
    }
    return parse(text, what);
  }

  /** Parses {@code text}; {@code what} names the document in messages. */
  public JsonNode parse(String text, String what) {
    if (text.length() > maxBytes) {
      throw new StrictJsonException(
          Failure.TOO_LARGE, what + " has " + text.length() + " characters; the limit is " + maxBytes, null);
    }
    try {
      JsonNode node = mapper.readTree(text);
      if (node == null || node.isMissingNode()) {
        throw new StrictJsonException(Failure.SYNTAX, what + " is empty", null);
      }
      return node;
    } catch (StreamConstraintsException e) {
      Failure failure = e.getMessage().contains("depth") ? Failure.TOO_DEEP : Failure.TOO_LARGE;
      throw new StrictJsonException(failure, what + ": " + e.getOriginalMessage(), e);
    } catch (JsonParseException e) {
      Failure failure =
          e.getOriginalMessage().startsWith("Duplicate field") ? Failure.DUPLICATE_KEY : Failure.SYNTAX;
      throw new StrictJsonException(failure, what + at(e.getLocation()) + ": " + e.getOriginalMessage(), e);
    } catch (JsonProcessingException e) {
      throw new StrictJsonException(Failure.SYNTAX, what + at(e.getLocation()) + ": " + e.getOriginalMessage(), e);
    }
  }

  private static String at(@Nullable JsonLocation location) {
    return location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
  }

  private static boolean startsWith(byte[] bytes, int... prefix) {
    if (bytes.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if ((bytes[i] & 0xff) != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
