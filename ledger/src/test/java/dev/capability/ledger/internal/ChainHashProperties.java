package dev.capability.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

class ChainHashProperties {

  /** The envelope built by concatenation is exactly RFC 8785's, for any kind and time text a row could hold. */
  @Property
  void theEnvelopeIsTheCanonicalJsonOfItsMembers(@ForAll String kind, @ForAll String recordedAt,
      @ForAll @LongRange(min = 1, max = 1L << 53) long seq, @ForAll String note) {
    Assume.that(wellFormed(kind) && wellFormed(recordedAt) && wellFormed(note));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("note", note);
    body.put("list", List.of(1, "x"));
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("seq", seq);
    envelope.put("recordedAt", recordedAt);
    envelope.put("kind", kind);
    envelope.put("body", body);
    byte[] expected = CanonicalJson.bytes(envelope);
    assertThat(ChainHash.envelope(seq, kind, recordedAt, CanonicalJson.bytes(body)))
        .isEqualTo(expected);
    assertThat(new String(expected, StandardCharsets.UTF_8)).startsWith("{\"body\":");
  }

  private static boolean wellFormed(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }
}
