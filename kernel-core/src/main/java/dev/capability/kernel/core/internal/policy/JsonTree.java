package dev.capability.kernel.core.internal.policy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One JSON value of an operator's file (a policy or an authority layer), read with Jackson's
 * streaming parser alone. The files were read through Jackson's tree model before; its object
 * mapper loads some 300 classes more than the parser, which cost a {@code capability exec} or
 * {@code check} a fifth of its start (docs/BENCHMARKS.md). Strict as before: duplicate member
 * names, comments and anything after the value are refused with a line and column; numbers keep
 * whether they were written as integers.
 */
public final class JsonTree {
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  /** The kind of a value, named as messages name it ({@code found null}, {@code found number}). */
  private enum Kind {
    OBJECT,
    ARRAY,
    STRING,
    NUMBER,
    BOOLEAN,
    NULL
  }

  private final Kind kind;
  private final Object value;

  private JsonTree(Kind kind, Object value) {
    this.kind = kind;
    this.value = value;
  }

  /** A syntax error: what is wrong, at which line and column when known. */
  public static final class SyntaxException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String where;

    private SyntaxException(String where, String message, Throwable cause) {
      super(message, cause);
      this.where = where;
    }

    /** {@code " at line L, column C"}, or empty when the position is unknown. */
    public String where() {
      return where;
    }
  }

  /**
   * Reads {@code json}: one value with optional whitespace around it.
   *
   * @return empty when the text holds no value at all (nothing or only whitespace)
   * @throws SyntaxException when the text is not one strict JSON value
   */
  public static Optional<JsonTree> parse(String json) throws SyntaxException {
    try (JsonParser parser = FACTORY.createParser(json)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return Optional.empty();
      }
      JsonTree root = read(parser, first);
      if (parser.nextToken() != null) {
        throw new SyntaxException(
            where(parser.currentTokenLocation()), "content after the JSON value (" + parser.currentToken().asString() + ")", null);
      }
      return Optional.of(root);
    } catch (JsonProcessingException e) {
      throw new SyntaxException(where(e.getLocation()), e.getOriginalMessage(), e);
    } catch (IOException e) {
      // A parser over a string reads no device; kept for the signature.
      throw new UncheckedIOException(e);
    }
  }

  private static String where(JsonLocation at) {
    return at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
  }

  private static JsonTree read(JsonParser parser, JsonToken token) throws IOException {
    switch (token) {
      case START_OBJECT: {
        Map<String, JsonTree> members = new LinkedHashMap<>();
        for (JsonToken next = parser.nextToken(); next != JsonToken.END_OBJECT; next = parser.nextToken()) {
          String name = parser.currentName();
          members.put(name, read(parser, parser.nextToken()));
        }
        return new JsonTree(Kind.OBJECT, Collections.unmodifiableMap(members));
      }
      case START_ARRAY: {
        List<JsonTree> elements = new ArrayList<>();
        for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
          elements.add(read(parser, next));
        }
        return new JsonTree(Kind.ARRAY, Collections.unmodifiableList(elements));
      }
      case VALUE_STRING:
        return new JsonTree(Kind.STRING, parser.getText());
      case VALUE_NUMBER_INT:
        return new JsonTree(Kind.NUMBER, parser.getBigIntegerValue());
      case VALUE_NUMBER_FLOAT:
        // Kept as written: a float is never an integer here, whatever its value.
        return new JsonTree(Kind.NUMBER, parser.getText());
      case VALUE_TRUE:
        return new JsonTree(Kind.BOOLEAN, Boolean.TRUE);
      case VALUE_FALSE:
        return new JsonTree(Kind.BOOLEAN, Boolean.FALSE);
      case VALUE_NULL:
        return new JsonTree(Kind.NULL, null);
      default:
        throw new JsonParseException(parser, "unexpected " + token);
    }
  }

  /** The kind's name as messages show it: {@code object}, {@code string}, {@code null}, ... */
  public String kindName() {
    return kind.name().toLowerCase(Locale.ROOT);
  }

  public boolean isObject() {
    return kind == Kind.OBJECT;
  }

  public boolean isArray() {
    return kind == Kind.ARRAY;
  }

  public boolean isText() {
    return kind == Kind.STRING;
  }

  public boolean isBoolean() {
    return kind == Kind.BOOLEAN;
  }

  /** A number written without a fraction or exponent. */
  public boolean isInteger() {
    return value instanceof BigInteger;
  }

  /** The string; only for {@link #isText}. */
  public String text() {
    return (String) value;
  }

  public boolean booleanValue() {
    return (Boolean) value;
  }

  /** The integer, exactly; only for {@link #isInteger}. */
  public BigInteger integer() {
    return (BigInteger) value;
  }

  /** The member {@code name} of an object, or null when it has none (or this is no object). */
  public JsonTree get(String name) {
    return kind == Kind.OBJECT ? members().get(name) : null;
  }

  /** The members of an object, in document order. */
  @SuppressWarnings("unchecked")
  public Map<String, JsonTree> members() {
    return (Map<String, JsonTree>) value;
  }

  /** The elements of an array, in document order. */
  @SuppressWarnings("unchecked")
  public List<JsonTree> elements() {
    return (List<JsonTree>) value;
  }
}
