package dev.capability.backend.support;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

class ProcStatProperties {

  @Property
  void parsesEveryCommandNameAProcessCanChoose(
      @ForAll("commandNames") String comm,
      @ForAll @LongRange(min = 1, max = 4_194_304) long pid,
      @ForAll @LongRange(min = 0, max = 4_194_304) long ppid,
      @ForAll @LongRange(min = 0, max = 4_194_304) long session,
      @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long startTicks) {
    String line =
        pid
            + " ("
            + comm
            + ") S "
            + ppid
            + " "
            + session
            + " "
            + session
            + " 0 -1 4194560 120 0 0 0 1 2 0 0 20 0 1 0 "
            + startTicks
            + " 8445952 200\n";

    ProcStat stat = ProcStat.parse(line);

    assertThat(stat).isEqualTo(new ProcStat(pid, comm, 'S', ppid, session, session, startTicks));
  }

  /** A command name is up to 15 arbitrary bytes except NUL, read one byte per char. */
  @Provide
  Arbitrary<String> commandNames() {
    return Arbitraries.strings()
        .withChars("() \n\t")
        .withCharRange('\u0001', '\u00ff')
        .ofMinLength(0)
        .ofMaxLength(15);
  }
}
