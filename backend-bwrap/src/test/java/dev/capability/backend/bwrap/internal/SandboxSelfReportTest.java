package dev.capability.backend.bwrap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SandboxSelfReportTest {
  private static final String STATUS =
      "Name:\tcp\n"
          + "Pid:\t2\n"
          + "NSpid:\t2\n"
          + "CapInh:\t0000000000000000\n"
          + "CapPrm:\t0000000000000000\n"
          + "CapEff:\t0000000000000000\n"
          + "CapBnd:\t0000000000000000\n"
          + "CapAmb:\t0000000000000000\n"
          + "NoNewPrivs:\t1\n";
  private static final String MOUNTINFO =
      "67 43 0:40 /newroot / ro,nosuid,nodev,relatime - tmpfs tmpfs rw\n"
          + "79 67 0:45 / /tmp rw,nosuid,nodev,relatime - tmpfs tmpfs rw,size=1024k\n"
          + "80 79 254:0 /a\\040b /a\\040b ro,relatime - ext4 /dev/vda rw\n";

  @Test
  void readsWhatTheSandboxSawOfItself() {
    SandboxSelfReport report =
        SandboxSelfReport.parse(
            STATUS, "", "     65534          0          1\n", MOUNTINFO, "sandbox\n", 65534);

    assertThat(report.freshPidNamespace()).isTrue();
    assertThat(report.noCapabilities()).isTrue();
    assertThat(report.noNewPrivileges()).isTrue();
    assertThat(report.ownUserNamespace()).isTrue();
    assertThat(report.readOnly("/")).isTrue();
    assertThat(report.readOnly("/tmp")).isFalse();
    assertThat(report.mountsUnder("/a b")).containsExactly("/a b");
    assertThat(report.environment()).isEmpty();
    assertThat(report.hostname()).isEqualTo("sandbox");
  }

  @Test
  void noticesWhatIsMissing() {
    SandboxSelfReport report =
        SandboxSelfReport.parse(
            STATUS
                .replace("Pid:\t2\nNSpid:\t2", "Pid:\t4242\nNSpid:\t4242")
                .replace("CapEff:\t0000000000000000", "CapEff:\t00000000a80425fb"),
            "PATH=/bin\0SECRET=x\0",
            "0 0 4294967295",
            MOUNTINFO.replace("/newroot / ro,", "/newroot / rw,"),
            "host",
            0);

    assertThat(report.freshPidNamespace()).isFalse();
    assertThat(report.noCapabilities()).isFalse();
    assertThat(report.ownUserNamespace()).isFalse();
    assertThat(report.readOnly("/")).isFalse();
    assertThat(report.environment())
        .as("names only, never values")
        .containsExactly("PATH", "SECRET");
  }
}
