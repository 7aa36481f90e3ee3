package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedactionTest {
  @TempDir Path repo;

  @Test
  void redactedMembersAndSecretsNeverReachTheDatabaseAndTheChainCoversTheRedactedRecord() throws Exception {
    Redaction redaction = Redaction.builder()
        .pointer(RecordKind.EXECUTION, "/argv/2")
        .pointer(RecordKind.EXECUTION, "/policySource")
        .secretValue("s3cr3t-t0ken")
        .build();
    try (LedgerWriter store = new RedactingEvidenceStore(SqliteLedger.forRepository(repo), redaction)) {
      store.record(Fixtures.completed(List.of("curl", "-H", "X-Api-Key: plain-key-in-argv", "https://x/?t=s3cr3t-t0ken"), 0, ""));
    }
    Path dir = repo.resolve(".capability");
    assertThat(SqliteLedgerTest.filesContaining(dir, "plain-key-in-argv")).isEmpty();
    assertThat(SqliteLedgerTest.filesContaining(dir, "s3cr3t-t0ken")).isEmpty();
    assertThat(SqliteLedgerTest.filesContaining(dir, "/etc/capability/policy.json")).isEmpty();

    LedgerReader reader = LedgerReader.forRepository(repo);
    assertThat(reader.list(LedgerQuery.latest(1)).get(0).argv())
        .containsExactly("curl", "-H", "[REDACTED]", "https://x/?t=[REDACTED]");
    LedgerEntry entry = reader.show(1).orElseThrow();
    assertThat(entry.body().get("policySource")).isEqualTo("[REDACTED]");
    assertThat(entry.hashMatches()).isTrue();
    assertThat(reader.verify().intact()).isTrue();
  }

  @Test
  void pointersFollowRfc6901AndMissIgnoringAbsentMembers() {
    Redaction redaction = Redaction.builder().pointer("/a~1b/c~0d").pointer("/list/1").pointer("/absent/x").pointer("/list/9").build();
    LedgerRecord record = LedgerRecord.of(RecordKind.PLAN, Map.of("planId", "p", "fingerprint", "f",
        "a/b", Map.of("c~d", "hidden", "e", "kept"), "list", List.of("x", "y", "z")));
    Map<String, Object> body = redaction.apply(record).body();
    assertThat(body.get("a/b")).isEqualTo(Map.of("c~d", "[REDACTED]", "e", "kept"));
    assertThat(body.get("list")).isEqualTo(List.of("x", "[REDACTED]", "z"));
    assertThat(record.body().get("list")).as("the original is untouched").isEqualTo(List.of("x", "y", "z"));
  }

  @Test
  void aLongerSecretContainingAShorterOneIsRemovedWhole() {
    Redaction redaction = Redaction.builder().secretValue("abcd").secretValue("abcdefgh").build();
    LedgerRecord record = LedgerRecord.of(RecordKind.PLAN, Map.of("planId", "p", "fingerprint", "f", "note", "x abcdefgh y abcd"));
    assertThat(redaction.apply(record).body().get("note")).isEqualTo("x [REDACTED] y [REDACTED]");
  }

  @Test
  void malformedPointersAndTooShortSecretsAreRefused() {
    assertThatThrownBy(() -> Redaction.builder().pointer("")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'/'");
    assertThatThrownBy(() -> Redaction.builder().pointer("argv")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Redaction.builder().pointer("/a~2")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("~");
    assertThatThrownBy(() -> Redaction.builder().secretValue("abc")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 4");
  }
}
