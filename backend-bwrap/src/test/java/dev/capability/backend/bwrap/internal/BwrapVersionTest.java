package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BwrapVersionTest {
  @Test
  void parsesAndOrdersVersions() {
    assertThat(BwrapVersion.parse("bubblewrap 0.8.0\n")).contains(new BwrapVersion(0, 8, 0));
    assertThat(BwrapVersion.parse("bubblewrap 0.11.1")).contains(new BwrapVersion(0, 11, 1));
    assertThat(BwrapVersion.parse("bwrap: unknown option")).isEmpty();
    assertThat(BwrapVersion.parse("bubblewrap 0.8")).isEmpty();
    assertThat(new BwrapVersion(0, 10, 0).atLeast(BwrapVersion.DISABLE_USERNS)).isTrue();
    assertThat(new BwrapVersion(0, 7, 9).atLeast(BwrapVersion.DISABLE_USERNS)).isFalse();
    assertThat(new BwrapVersion(1, 0, 0)).isGreaterThan(new BwrapVersion(0, 99, 99));
    assertThat(new BwrapVersion(0, 8, 0)).hasToString("0.8.0");
  }
}
