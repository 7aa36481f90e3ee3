package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

class ProcTableTest {
  @Test
  void findsAChildAmongTheDescendantsAndByItsArgument() throws IOException, InterruptedException {
    // A fractional duration nobody else uses makes the argument unique on this host.
    String argument = "3600." + ThreadLocalRandom.current().nextLong(1_000_000_000L, Long.MAX_VALUE);
    Process child = new ProcessBuilder("sleep", argument).start();
    try {
      assertThat(ProcTable.descendants(ProcessHandle.current().pid()))
          .extracting(ProcStat::pid)
          .contains(child.pid());
      assertThat(ProcTable.withArgument(argument))
          .extracting(ProcStat::pid)
          .containsExactly(child.pid());
      assertThat(ProcTable.withArgument(argument + "0")).isEmpty();
    } finally {
      child.destroyForcibly();
      child.waitFor();
    }
    assertThat(ProcTable.withArgument(argument)).as("a reaped process is gone").isEmpty();
  }

  @Test
  void procIsAvailableOnThisHost() {
    assertThat(ProcTable.available()).isTrue();
  }
}
