package dev.capability.linux;

import static dev.capability.linux.ClassicBpf.AUDIT_ARCH_I386;
import static dev.capability.linux.ClassicBpf.AUDIT_ARCH_X86_64;
import static dev.capability.linux.ClassicBpf.RET_ALLOW;
import static dev.capability.linux.ClassicBpf.RET_ERRNO;
import static dev.capability.linux.ClassicBpf.RET_KILL_PROCESS;
import static dev.capability.linux.ClassicBpf.X32_SYSCALL_BIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.linux.SeccompFilter.Condition;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What an exported filter decides, run through a classic BPF interpreter for calls Java cannot
 * make (other architectures, junk in a register's upper half), and the refusals of bad rules.
 * The system call numbers are x86-64's.
 */
class SeccompFilterTest {
  private static final int SOCKET = 41;
  private static final int CLONE = 56;
  private static final int EXECVE = 59;
  private static final int GETPID = 39;
  private static final int MKDIR = 83;
  private static final int I386_MKDIR = 39;
  private static final int AF_INET = 2;
  private static final int AF_NETLINK = 16;
  private static final int AF_VSOCK = 40;
  private static final int SOCK_DGRAM = 2;
  private static final long CLONE_NEWUSER = 0x10000000L;
  private static final long SIGCHLD = 17;

  @BeforeEach
  void libseccompAndX86() {
    LibSeccompGate.requireLibseccomp();
    Assumptions.assumeTrue("amd64".equals(System.getProperty("os.arch")), "the expected system call numbers are x86-64's");
  }

  @Test
  void deniesTheNamedCallWithItsErrorAndAllowsOthers() {
    ClassicBpf program = new ClassicBpf(SeccompFilter.builder().deny("mkdir", SeccompFilter.EPERM).deny("execve", 13).build().toBpf());

    assertThat(program.run(AUDIT_ARCH_X86_64, MKDIR)).isEqualTo(RET_ERRNO | 1);
    assertThat(program.run(AUDIT_ARCH_X86_64, EXECVE)).isEqualTo(RET_ERRNO | 13);
    assertThat(program.run(AUDIT_ARCH_X86_64, GETPID)).isEqualTo(RET_ALLOW);
  }

  @Test
  void killsTheProcessForI386AndX32CallsSoADenyCannotBeBypassedThroughAnotherAbi() {
    ClassicBpf program = new ClassicBpf(SeccompFilter.builder().deny("mkdir", SeccompFilter.EPERM).build().toBpf());

    assertThat(program.run(AUDIT_ARCH_I386, I386_MKDIR)).as("i386 mkdir through int 0x80").isEqualTo(RET_KILL_PROCESS);
    assertThat(program.run(AUDIT_ARCH_I386, GETPID)).as("any i386 call").isEqualTo(RET_KILL_PROCESS);
    assertThat(program.run(AUDIT_ARCH_X86_64, X32_SYSCALL_BIT | MKDIR)).as("x32 mkdir").isEqualTo(RET_KILL_PROCESS);
    assertThat(program.run(AUDIT_ARCH_X86_64, X32_SYSCALL_BIT | GETPID)).as("any x32 call").isEqualTo(RET_KILL_PROCESS);
  }

  @Test
  void deniesOnlyWhenEveryConditionHolds() {
    ClassicBpf program =
        new ClassicBpf(
            SeccompFilter.builder()
                .deny("socket", SeccompFilter.EAFNOSUPPORT, Condition.intEqual(0, AF_VSOCK))
                .deny("socket", SeccompFilter.EAFNOSUPPORT, Condition.intEqual(0, AF_NETLINK), Condition.notEqual(2, 0))
                .deny("clone", SeccompFilter.EPERM, Condition.maskedEqual(0, CLONE_NEWUSER, CLONE_NEWUSER))
                .build()
                .toBpf());

    assertThat(program.run(AUDIT_ARCH_X86_64, SOCKET, AF_VSOCK, 1, 0)).isEqualTo(RET_ERRNO | 97);
    assertThat(program.run(AUDIT_ARCH_X86_64, SOCKET, AF_NETLINK, SOCK_DGRAM, 9)).isEqualTo(RET_ERRNO | 97);
    assertThat(program.run(AUDIT_ARCH_X86_64, SOCKET, AF_NETLINK, SOCK_DGRAM, 0)).as("netlink route").isEqualTo(RET_ALLOW);
    assertThat(program.run(AUDIT_ARCH_X86_64, SOCKET, AF_INET, SOCK_DGRAM, 0)).isEqualTo(RET_ALLOW);
    assertThat(program.run(AUDIT_ARCH_X86_64, CLONE, CLONE_NEWUSER | SIGCHLD)).isEqualTo(RET_ERRNO | 1);
    assertThat(program.run(AUDIT_ARCH_X86_64, CLONE, SIGCHLD)).isEqualTo(RET_ALLOW);
  }

  @Test
  void anIntComparisonIgnoresJunkInTheRegistersUpperHalfAsTheKernelDoes() {
    long vsockWithJunk = (1L << 32) | AF_VSOCK;
    ClassicBpf intEqual = new ClassicBpf(SeccompFilter.builder().deny("socket", 97, Condition.intEqual(0, AF_VSOCK)).build().toBpf());
    ClassicBpf equal = new ClassicBpf(SeccompFilter.builder().deny("socket", 97, Condition.equal(0, AF_VSOCK)).build().toBpf());

    assertThat(intEqual.run(AUDIT_ARCH_X86_64, SOCKET, vsockWithJunk, 1, 0)).isEqualTo(RET_ERRNO | 97);
    assertThat(equal.run(AUDIT_ARCH_X86_64, SOCKET, vsockWithJunk, 1, 0))
        .as("a 64-bit comparison misses the int the kernel reads: why intEqual exists")
        .isEqualTo(RET_ALLOW);
  }

  @Test
  void refusesUnknownSystemCallsNamingEachOfThem() {
    SeccompFilter.Builder builder = SeccompFilter.builder().deny("mkdir", 1).deny("mkdri", 1).deny("io_uring_stup", 1);

    assertThatThrownBy(builder::build)
        .isInstanceOfSatisfying(SeccompException.class, e -> assertThat(e.code()).isEqualTo(SeccompException.SECCOMP_UNKNOWN_SYSCALL))
        .hasMessageContaining("mkdri, io_uring_stup")
        .message()
        .doesNotContain("mkdir,");
  }

  @Test
  void refusesRulesThatCouldNeverHoldOrNameNoArgument() {
    assertThatThrownBy(() -> SeccompFilter.builder().deny("mkdir", 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 4095");
    assertThatThrownBy(() -> SeccompFilter.builder().deny("mkdir", 4096)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SeccompFilter.builder().deny(" ", 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Condition.equal(6, 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 to 5");
    assertThatThrownBy(() -> Condition.maskedEqual(0, 0xff, 0x100)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside the mask");
  }

  @Test
  void reportsItselfAvailableWhereLibseccompLoads() {
    assertThat(SeccompFilter.availability()).isEqualTo(new SeccompFilter.Availability(true, ""));
  }
}
