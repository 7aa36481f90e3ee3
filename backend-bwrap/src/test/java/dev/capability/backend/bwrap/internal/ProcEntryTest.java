package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProcEntryTest {
  @Test
  void parsesACommandNameWithSpacesAndParentheses() {
    String line =
        "4242 (evil) S 1 2 3 (x) R 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000"
            + " 10";
    ProcEntry entry = ProcEntry.parse(line);

    assertThat(entry).isEqualTo(new ProcEntry(4242, 'R', 17, 987654));
    assertThat(entry.exited()).isFalse();
    assertThat(ProcEntry.parse("7 (z) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0").exited())
        .isTrue();
  }

  @Test
  void refusesWhatIsNotAStatLine() {
    assertThatThrownBy(() -> ProcEntry.parse("garbage"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ProcEntry.parse("1 (a) S 0 1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ProcEntry.parse("x (a) S 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void readsThisJvmFromProc() {
    ProcEntry self = ProcTable.read(ProcessHandle.current().pid()).orElseThrow();

    assertThat(self.pid()).isEqualTo(ProcessHandle.current().pid());
    assertThat(ProcTable.alive(self)).isTrue();
    assertThat(ProcTable.alive(new ProcEntry(self.pid(), 'S', self.ppid(), self.startTicks() + 1)))
        .as("same pid, other start time: another process")
        .isFalse();
  }
}
