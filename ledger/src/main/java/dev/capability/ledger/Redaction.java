package dev.capability.ledger;

import dev.capability.ledger.internal.JsonPointer;
import dev.capability.ledger.internal.JsonValues;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What must never reach the ledger: members named by RFC 6901 JSON pointers (for every kind or
 * one kind), and secret values wherever they occur in a string. A redacted member's value, or
 * the secret inside a string, becomes {@value #MARK}. Redaction happens before the record is
 * canonicalized and hashed, so the chain covers the redacted record and the secret is nowhere in
 * the database, its journal or its exports.
 */
public final class Redaction {
  /** What replaces a redacted value. */
  public static final String MARK = "[REDACTED]";
  /** Shorter secrets would redact ordinary text; refuse them. */
  public static final int MIN_SECRET_LENGTH = 4;

  private final Map<RecordKind, List<JsonPointer>> pointers;
  private final List<String> secrets;

  private Redaction(Builder b) {
    Map<RecordKind, List<JsonPointer>> copy = new EnumMap<>(RecordKind.class);
    b.pointers.forEach((kind, list) -> copy.put(kind, List.copyOf(list)));
    this.pointers = copy;
    // Longest first, so a secret that contains another is replaced whole.
    this.secrets = b.secrets.stream().distinct().sorted((x, y) -> Integer.compare(y.length(), x.length())).toList();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code record} with every named member and every secret replaced by {@value #MARK}. */
  public LedgerRecord apply(LedgerRecord record) {
    Objects.requireNonNull(record, "record");
    Map<String, Object> body = JsonValues.mutableObject(record.body(), "the " + record.kind().id() + " record");
    for (JsonPointer pointer : pointers.getOrDefault(record.kind(), List.of())) {
      pointer.replace(body, MARK);
    }
    if (!secrets.isEmpty()) {
      body = scrubObject(body);
    }
    return new LedgerRecord(record.kind(), body);
  }

  private Map<String, Object> scrubObject(Map<String, Object> object) {
    object.replaceAll((name, value) -> scrub(value));
    return object;
  }

  private Object scrub(Object value) {
    if (value instanceof String s) {
      for (String secret : secrets) {
        s = s.replace(secret, MARK);
      }
      return s;
    }
    if (value instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Map<String, Object> object = (Map<String, Object>) map;
      return scrubObject(object);
    }
    if (value instanceof List<?> list) {
      @SuppressWarnings("unchecked")
      List<Object> array = (List<Object>) list;
      array.replaceAll(this::scrub);
      return array;
    }
    return value;
  }

  /** Builds a {@link Redaction}. */
  public static final class Builder {
    private final Map<RecordKind, List<JsonPointer>> pointers = new EnumMap<>(RecordKind.class);
    private final List<String> secrets = new ArrayList<>();

    private Builder() {}

    /** Redacts the member at {@code jsonPointer} in records of every kind. */
    public Builder pointer(String jsonPointer) {
      for (RecordKind kind : RecordKind.values()) {
        pointer(kind, jsonPointer);
      }
      return this;
    }

    /** Redacts the member at {@code jsonPointer} (for example {@code /argv/2}) in records of {@code kind}. */
    public Builder pointer(RecordKind kind, String jsonPointer) {
      Objects.requireNonNull(kind, "kind");
      JsonPointer parsed = JsonPointer.parse(Objects.requireNonNull(jsonPointer, "jsonPointer"));
      pointers.computeIfAbsent(kind, k -> new ArrayList<>()).add(parsed);
      return this;
    }

    /** Redacts {@code value} wherever it occurs inside any string of any record. */
    public Builder secretValue(String value) {
      Objects.requireNonNull(value, "value");
      if (value.length() < MIN_SECRET_LENGTH) {
        throw new IllegalArgumentException("a secret to redact must have at least " + MIN_SECRET_LENGTH
            + " characters; shorter ones would erase ordinary text");
      }
      secrets.add(value);
      return this;
    }

    public Redaction build() {
      return new Redaction(this);
    }
  }
}
