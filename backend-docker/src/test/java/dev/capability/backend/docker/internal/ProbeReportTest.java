package dev.capability.backend.docker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.kernel.api.backend.IsolationCapability;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ProbeReportTest {
  private static final String STATUS =
      "Name:\tcat\nUmask:\t0022\nState:\tR (running)\nPid:\t7\nPPid:\t1\nUid:\t65534\t65534\t65534\t65534\n"
          + "NoNewPrivs:\t1\nSeccomp:\t2\nCapInh:\t0000000000000000\nCapPrm:\t0000000000000000\n"
          + "CapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nCapAmb:\t0000000000000000\n";
  private static final String MOUNTINFO =
      "600 500 0:50 / / ro,relatime master:1 - overlay overlay rw,lowerdir=/x\n"
          + "601 600 0:51 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n"
          + "602 600 0:52 / /tmp rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,size=65536k\n"
          + "603 600 8:1 /usr /usr ro,relatime - ext4 /dev/sda1 rw\n";
  private static final String NET_DEV =
      "Inter-|   Receive                  |  Transmit\n"
          + " face |bytes    packets errs drop|bytes    packets\n"
          + "    lo:       0       0    0    0        0       0\n";

  private static String output(String environ, String mountinfo, String net, String hostname) {
    return environ
        + STATUS
        + mountinfo
        + net
        + hostname
        + "\nLinux\n1073741824\nLinux\n512\nLinux\n100000\nLinux\n"
        + "Limit                     Soft Limit           Hard Limit           Units\n"
        + "Max cpu time              unlimited            unlimited            seconds\n"
        + "Max stack size            8388608              unlimited            bytes\n";
  }

  @Test
  void readsWhatTheProbeContainerPrinted() {
    ProbeReport report =
        ProbeReport.parse(output("", MOUNTINFO, NET_DEV, "sandbox")).orElseThrow();

    assertThat(report.environmentBytes()).isZero();
    assertThat(report.status()).containsEntry("PPid", "1").containsEntry("NoNewPrivs", "1");
    assertThat(report.ids("Uid")).containsExactly("65534", "65534", "65534", "65534");
    assertThat(report.noCapabilities()).isTrue();
    assertThat(report.readOnly("/")).isTrue();
    assertThat(report.readOnly("/tmp")).isFalse();
    assertThat(report.mountTypes()).containsEntry("/tmp", "tmpfs");
    assertThat(report.interfaces()).containsExactly("lo");
    assertThat(report.hostname()).isEqualTo("sandbox");
    assertThat(report.memoryLimit()).hasValue("1073741824");
    assertThat(report.pidsLimit()).hasValue("512");
    assertThat(report.cpuLimit()).hasValue("100000");
    assertThat(report.stackLimit()).hasValue("8388608");
  }

  @Test
  void advertisesWhatTheProbeShowedAndNoMore() {
    ProbeReport report =
        ProbeReport.parse(output("", MOUNTINFO, NET_DEV, "sandbox")).orElseThrow();
    Map<String, String> diagnostics = new TreeMap<>();

    assertThat(DockerBackend.assess(report, DockerSettings.defaults(), diagnostics, true))
        .contains(
            IsolationCapability.NON_ROOT,
            IsolationCapability.CAPABILITY_DROP,
            IsolationCapability.NO_NEW_PRIVILEGES,
            IsolationCapability.READ_ONLY_ROOT,
            IsolationCapability.PRIVATE_TMP,
            IsolationCapability.NETWORK_NAMESPACE,
            IsolationCapability.PID_NAMESPACE,
            IsolationCapability.TREE_TERMINATION,
            IsolationCapability.MEMORY_LIMIT,
            IsolationCapability.PID_LIMIT,
            IsolationCapability.CPU_LIMIT,
            IsolationCapability.HOST_SOCKETS_HIDDEN,
            IsolationCapability.SECCOMP,
            IsolationCapability.NO_NESTED_USER_NAMESPACES)
        .doesNotContain(IsolationCapability.USER_NAMESPACE, IsolationCapability.CGROUP_NAMESPACE);
  }

  @Test
  void advertisesSeccompOnlyWithTheProjectsProfileInForceAndTheCapabilitiesDropped() {
    ProbeReport filtered =
        ProbeReport.parse(output("", MOUNTINFO, NET_DEV, "sandbox")).orElseThrow();
    ProbeReport unfiltered =
        ProbeReport.parse(output("", MOUNTINFO, NET_DEV, "sandbox").replace("Seccomp:\t2", "Seccomp:\t0"))
            .orElseThrow();
    ProbeReport capable =
        ProbeReport.parse(
                output("", MOUNTINFO, NET_DEV, "sandbox")
                    .replace("CapEff:\t0000000000000000", "CapEff:\t00000000a80425fb"))
            .orElseThrow();
    Map<String, String> withoutProfile = new TreeMap<>();
    Map<String, String> withoutFilter = new TreeMap<>();
    Map<String, String> withCapabilities = new TreeMap<>();

    assertThat(DockerBackend.assess(filtered, DockerSettings.defaults(), withoutProfile, false))
        .doesNotContain(
            IsolationCapability.SECCOMP, IsolationCapability.NO_NESTED_USER_NAMESPACES);
    assertThat(DockerBackend.assess(unfiltered, DockerSettings.defaults(), withoutFilter, true))
        .doesNotContain(
            IsolationCapability.SECCOMP, IsolationCapability.NO_NESTED_USER_NAMESPACES);
    assertThat(DockerBackend.assess(capable, DockerSettings.defaults(), withCapabilities, true))
        .doesNotContain(
            IsolationCapability.SECCOMP, IsolationCapability.NO_NESTED_USER_NAMESPACES);
    assertThat(withoutProfile.get("SECCOMP")).contains("not applied");
    assertThat(withoutFilter.get("SECCOMP")).contains("Seccomp 0");
    assertThat(withCapabilities.get("SECCOMP")).contains("holds capabilities");
  }

  @Test
  void theProjectsProfileNeedsSeccompSupportAndPerRuleErrors() {
    List<String> supported = List.of("name=apparmor", "name=seccomp,profile=default");

    assertThat(DockerBackend.projectSeccompUnsupported(supported, "1.41")).isEmpty();
    assertThat(DockerBackend.projectSeccompUnsupported(supported, "1.43")).isEmpty();
    assertThat(DockerBackend.projectSeccompUnsupported(supported, "1.40"))
        .hasValueSatisfying(why -> assertThat(why).contains("errnoRet"));
    assertThat(DockerBackend.projectSeccompUnsupported(supported, "garbage"))
        .hasValueSatisfying(why -> assertThat(why).contains("errnoRet"));
    assertThat(DockerBackend.projectSeccompUnsupported(List.of("name=apparmor"), "1.41"))
        .hasValueSatisfying(why -> assertThat(why).contains("no seccomp support"));
  }

  @Test
  void withholdsWhatTheProbeDisproved() {
    String writableRoot = MOUNTINFO.replace("/ / ro,relatime", "/ / rw,relatime");
    String socket =
        writableRoot + "604 600 0:53 /docker.sock /run/docker.sock rw - tmpfs tmpfs rw\n";
    String bridged = NET_DEV + "  eth0:    1       1    0    0        0       0\n";
    ProbeReport report =
        ProbeReport.parse(output("", socket, bridged, "host-name").replace("PPid:\t1", "PPid:\t4242"))
            .orElseThrow();
    Map<String, String> diagnostics = new TreeMap<>();

    assertThat(DockerBackend.assess(report, DockerSettings.defaults(), diagnostics, true))
        .doesNotContain(
            IsolationCapability.READ_ONLY_ROOT,
            IsolationCapability.HOST_SOCKETS_HIDDEN,
            IsolationCapability.NETWORK_NAMESPACE,
            IsolationCapability.UTS_NAMESPACE,
            IsolationCapability.PID_NAMESPACE,
            IsolationCapability.TREE_TERMINATION);
    assertThat(diagnostics)
        .containsKeys(
            "READ_ONLY_ROOT", "HOST_SOCKETS_HIDDEN", "NETWORK_NAMESPACE", "UTS_NAMESPACE", "PID_NAMESPACE");
    assertThat(report.mountsUnder("/run")).containsExactly("/run/docker.sock");
  }

  @Test
  void refusesADaemonThatLeaksEnvironmentOrRunsAsRoot() {
    ProbeReport leaky =
        ProbeReport.parse(output("PATH=/usr/bin\0HOSTNAME=x\0", MOUNTINFO, NET_DEV, "sandbox"))
            .orElseThrow();
    ProbeReport root =
        ProbeReport.parse(
                output("", MOUNTINFO, NET_DEV, "sandbox").replace("65534\t65534", "0\t0"))
            .orElseThrow();

    assertThat(leaky.environmentBytes()).isPositive();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> DockerBackend.assess(leaky, DockerSettings.defaults(), new TreeMap<>(), true))
        .hasMessageContaining("bytes of environment");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> DockerBackend.assess(root, DockerSettings.defaults(), new TreeMap<>(), true))
        .hasMessageContaining("uids");
  }

  @Test
  void somethingElseIsNoReport() {
    assertThat(ProbeReport.parse("cat: /proc/self/status: No such file\n")).isEmpty();
  }
}
