package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProcStatTest {
  private static final String TAIL = " 0 -1 4194560 120 0 0 0 1 2 0 0 20 0 1 0 987654 8445952 200";

  @Test
  void readsThisJvmsOwnLine() {
    ProcessHandle self = ProcessHandle.current();

    ProcStat stat = ProcTable.read(self.pid()).orElseThrow();

    assertThat(stat.pid()).isEqualTo(self.pid());
    assertThat(stat.ppid()).isEqualTo(self.parent().orElseThrow().pid());
    assertThat(stat.exited()).isFalse();
    assertThat(ProcTable.snapshot()).anySatisfy(p -> assertThat(p.sameProcessAs(stat)).isTrue());
  }

  @Test
  void anchorsOnTheLastParenthesisSoACommandNameCannotForgeFields() {
    ProcStat stat = ProcStat.parse("4242 (evil) S 1 1 1 (x) R 9 9 9) S 100 200 300" + TAIL);

    assertThat(stat.pid()).isEqualTo(4242);
    assertThat(stat.comm()).isEqualTo("evil) S 1 1 1 (x) R 9 9 9");
    assertThat(stat.state()).isEqualTo('S');
    assertThat(stat.ppid()).isEqualTo(100);
    assertThat(stat.pgrp()).isEqualTo(200);
    assertThat(stat.session()).isEqualTo(300);
    assertThat(stat.startTicks()).isEqualTo(987654);
  }

  @Test
  void treatsZombiesAndDeadProcessesAsExited() {
    assertThat(ProcStat.parse("7 (z) Z 1 7 7" + TAIL).exited()).isTrue();
    assertThat(ProcStat.parse("7 (x) X 1 7 7" + TAIL).exited()).isTrue();
    assertThat(ProcStat.parse("7 (d) D 1 7 7" + TAIL).exited()).isFalse();
  }

  @Test
  void aProcessIsIdentifiedByPidAndStartTime() {
    ProcStat original = ProcStat.parse("7 (a) S 1 7 7" + TAIL);
    ProcStat reused = ProcStat.parse("7 (a) S 1 7 7" + TAIL.replace("987654", "987655"));

    assertThat(original.sameProcessAs(original)).isTrue();
    assertThat(original.sameProcessAs(reused)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "123",
        "(comm) S 1 2 3" + TAIL,
        "12 (comm) S 1 2 3",
        "12 comm) S 1 2 3" + TAIL,
        "x (comm) S 1 2 3" + TAIL,
        "12 (comm) S 1 two 3" + TAIL,
        "12 (comm) SS 1 2 3" + TAIL
      })
  void refusesMalformedLines(String line) {
    assertThatThrownBy(() -> ProcStat.parse(line))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("malformed /proc stat line");
  }

  @Test
  void aProcessWithTheSamePidButAnotherStartTimeIsNotAlive() {
    ProcStat self = ProcTable.read(ProcessHandle.current().pid()).orElseThrow();

    assertThat(ProcTable.alive(self)).isTrue();
    assertThat(
            ProcTable.alive(
                new ProcStat(
                    self.pid(),
                    self.comm(),
                    'S',
                    self.ppid(),
                    self.pgrp(),
                    self.session(),
                    self.startTicks() + 1)))
        .as("same pid, other start time: another process")
        .isFalse();
  }

  @Test
  void aVanishedProcessIsAbsent() {
    assertThat(ProcTable.read(Long.MAX_VALUE)).isEmpty();
  }
}
