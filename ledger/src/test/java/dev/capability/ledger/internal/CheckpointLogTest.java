package dev.capability.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointLogTest {
  @TempDir Path dir;

  private LedgerKey key() {
    return LedgerKey.createOrLoad(dir.resolve("key"), dir.resolve("key.pub"));
  }

  @Test
  void signedCheckpointsRoundTripAndVerify() {
    LedgerKey key = key();
    CheckpointLog log = new CheckpointLog(dir.resolve("checkpoints"));
    log.append(Checkpoint.sign(key, "L", 0, "0".repeat(64), "2026-11-30T00:00:00.000000Z"));
    log.append(Checkpoint.sign(key, "L", 7, "a".repeat(64), "2026-11-30T00:00:01.000000Z"));
    CheckpointLog.Contents contents = log.read();
    assertThat(contents.problems()).isEmpty();
    assertThat(contents.checkpoints()).extracting(Checkpoint::sequence).containsExactly(0L, 7L);
    assertThat(contents.checkpoints()).allMatch(cp -> cp.signatureValid(key.publicKey()));
    LedgerKey other = LedgerKey.createOrLoad(dir.resolve("other"), dir.resolve("other.pub"));
    assertThat(contents.checkpoints()).noneMatch(cp -> cp.signatureValid(other.publicKey()));
  }

  @Test
  void aLineCutShortByACrashIsIgnoredByReadersAndCutOffByTheNextWriter() throws Exception {
    LedgerKey key = key();
    Path file = dir.resolve("checkpoints");
    CheckpointLog log = new CheckpointLog(file);
    log.append(Checkpoint.sign(key, "L", 1, "1".repeat(64), "t1"));
    String torn = Checkpoint.sign(key, "L", 2, "2".repeat(64), "t2").line();
    Files.writeString(file, torn.substring(0, torn.length() / 2), StandardCharsets.UTF_8, StandardOpenOption.APPEND);

    assertThat(log.read().checkpoints()).extracting(Checkpoint::sequence).containsExactly(1L);
    assertThat(log.read().problems()).isEmpty();

    log.append(Checkpoint.sign(key, "L", 3, "3".repeat(64), "t3"));
    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSize(2);
    assertThat(log.read().checkpoints()).extracting(Checkpoint::sequence).containsExactly(1L, 3L);
  }

  @Test
  void malformedLinesAreReportedWithTheirLineNumbers() throws Exception {
    LedgerKey key = key();
    Path file = dir.resolve("checkpoints");
    CheckpointLog log = new CheckpointLog(file);
    log.append(Checkpoint.sign(key, "L", 1, "1".repeat(64), "t1"));
    Files.writeString(file, "not json\n{\"format\":\"capability-ledger-checkpoint/1\"}\n", StandardOpenOption.APPEND);
    CheckpointLog.Contents contents = log.read();
    assertThat(contents.checkpoints()).hasSize(1);
    assertThat(contents.problems()).hasSize(2);
    assertThat(contents.problems().get(0)).startsWith("line 2 ");
    assertThat(contents.problems().get(1)).startsWith("line 3 ").contains("members must be exactly");
  }

  @Test
  void appendsFromManyThreadsNeverInterleave() throws Exception {
    LedgerKey key = key();
    CheckpointLog log = new CheckpointLog(dir.resolve("checkpoints"));
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int base = t * 1000;
      Thread thread = new Thread(() -> {
        for (int i = 0; i < 50; i++) {
          log.append(Checkpoint.sign(key, "L", base + i, "f".repeat(64), "t"));
        }
      });
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    CheckpointLog.Contents contents = log.read();
    assertThat(contents.problems()).isEmpty();
    assertThat(contents.checkpoints()).hasSize(200).allMatch(cp -> cp.signatureValid(key.publicKey()));
  }

  @Test
  void aCheckpointFileThatIsASymbolicLinkIsNeitherFollowedNorCut() throws Exception {
    Path victim = dir.resolve("victim");
    Files.writeString(victim, "precious last line without newline");
    Path link = Files.createSymbolicLink(dir.resolve("checkpoints"), victim);
    CheckpointLog log = new CheckpointLog(link);
    assertThatThrownBy(() -> log.append(Checkpoint.sign(key(), "L", 1, "1".repeat(64), "t")))
        .isInstanceOf(dev.capability.ledger.LedgerException.class)
        .extracting(e -> ((dev.capability.ledger.LedgerException) e).code()).isEqualTo("LEDGER_CHECKPOINT_IO");
    assertThat(Files.readString(victim)).isEqualTo("precious last line without newline");
  }

  @Test
  void aFileEndingInALongUnterminatedLineIsNotAFileToCut() throws Exception {
    Path file = dir.resolve("checkpoints");
    String content = "x".repeat(10_000);
    Files.writeString(file, content);
    assertThatThrownBy(() -> new CheckpointLog(file).append(Checkpoint.sign(key(), "L", 1, "1".repeat(64), "t")))
        .hasMessageContaining("does not look like a checkpoint file");
    assertThat(Files.readString(file)).isEqualTo(content);
  }
}
