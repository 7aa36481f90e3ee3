package dev.capability.ledger.internal;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.LedgerException;
import java.io.IOException;
import java.util.Map;

/** The one JSON reader of the ledger: strict, duplicate names refused. */
public final class Json {
  /** Thread-safe once configured. */
  public static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  private Json() {}

  /** The JSON object in {@code text}, as maps, lists and scalars. */
  public static Map<String, Object> object(String text, String what) {
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> map = MAPPER.readValue(text, Map.class);
      if (map == null) {
        throw new LedgerException(LedgerCodes.LEDGER_CORRUPT, what + " is JSON null, not an object");
      }
      return map;
    } catch (IOException e) {
      throw new LedgerException(LedgerCodes.LEDGER_CORRUPT, what + " is not a JSON object: " + e.getMessage(), e);
    }
  }
}
