package dev.capability.linux;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.capability.linux.internal.CStrings;
import dev.capability.linux.internal.LibC;
import dev.capability.linux.internal.LibSeccomp;
import dev.capability.linux.internal.NativeLibraries;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A seccomp filter that allows every system call except those its rules deny, built with the
 * system's libseccomp (never a hand-written BPF program). A rule denies one system call, by name,
 * with an error number, either always or only when all its argument conditions hold.
 *
 * <p>System calls of any architecture other than this process's native one (on x86-64: i386
 * calls through {@code int 0x80}, and x32 calls, whose numbers carry bit 30) kill the process, so
 * a denied call cannot be reached under another number.
 *
 * <p>Building a filter resolves every name with libseccomp; each output builds a fresh libseccomp
 * context and releases it before returning. The filter itself is an immutable value.
 *
 * <pre>{@code
 * SeccompFilter filter = SeccompFilter.builder()
 *     .deny("execve", SeccompFilter.EPERM)
 *     .deny("socket", SeccompFilter.EAFNOSUPPORT, SeccompFilter.Condition.intEqual(0, 40))
 *     .build();
 * byte[] program = filter.toBpf();   // for bwrap --seccomp FD
 * }</pre>
 */
public final class SeccompFilter {
  /** {@code EPERM}, the usual error for a denied call. */
  public static final int EPERM = 1;

  /** {@code EAFNOSUPPORT}, the error for a socket family that is denied. */
  public static final int EAFNOSUPPORT = 97;

  /** {@code ENOSYS}: the call does not exist, so a C library falls back to an older one. */
  public static final int ENOSYS = 38;

  private static final int MAX_ERRNO = 4095;
  private static final int SYSCALL_ARGUMENTS = 6;

  private final List<Rule> rules;

  private SeccompFilter(List<Rule> rules) {
    this.rules = List.copyOf(rules);
  }

  /** A builder of a filter with no rules yet. */
  public static Builder builder() {
    return new Builder();
  }

  /** Whether libseccomp can be used in this process, and if not, why. */
  public static Availability availability() {
    Loaded loaded = Loaded.INSTANCE;
    return loaded.library == null ? new Availability(false, loaded.problem) : new Availability(true, "");
  }

  /** The rules, in the order they were added. */
  public List<Rule> rules() {
    return rules;
  }

  /**
   * The filter as a classic BPF program ({@code struct sock_filter} entries, in this machine's byte
   * order), as {@code seccomp_export_bpf} writes it: what {@code bwrap --seccomp FD} reads from its
   * descriptor.
   *
   * @throws SeccompException {@code SECCOMP_UNAVAILABLE} without libseccomp, {@code SECCOMP_FAILED}
   *     when libseccomp or the kernel refuses a step
   */
  public byte[] toBpf() {
    LibSeccomp library = library();
    Pointer context = newContext(library);
    try {
      return export(library, context);
    } finally {
      library.seccomp_release(context);
    }
  }

  /**
   * Installs the filter on every thread of this process, irrevocably: sets {@code no_new_privs}
   * (which an unprivileged process needs to install a filter, and which stops set-uid programs
   * from gaining privileges) and loads the filter with thread synchronisation, so threads the JVM
   * already started are held to it as well as those started later.
   *
   * @throws SeccompException {@code SECCOMP_UNAVAILABLE} without libseccomp, {@code SECCOMP_FAILED}
   *     when the kernel refuses the filter (nothing is installed then)
   */
  public void installOnThisProcess() {
    LibSeccomp library = library();
    Pointer context = newContext(library);
    try {
      check(library.seccomp_attr_set(context, LibSeccomp.FLTATR_CTL_NNP, 1), "setting no_new_privs");
      check(library.seccomp_attr_set(context, LibSeccomp.FLTATR_CTL_TSYNC, 1), "asking for thread synchronisation");
      check(library.seccomp_load(context), "loading the filter into the kernel");
    } finally {
      library.seccomp_release(context);
    }
  }

  private Pointer newContext(LibSeccomp library) {
    Pointer context = library.seccomp_init(LibSeccomp.ACT_ALLOW);
    if (context == null) {
      throw new SeccompException(SeccompException.SECCOMP_FAILED, "libseccomp could not create a filter context (seccomp_init)");
    }
    try {
      check(library.seccomp_attr_set(context, LibSeccomp.FLTATR_ACT_BADARCH, LibSeccomp.ACT_KILL_PROCESS), "setting the bad-architecture action");
      for (Rule rule : rules) {
        add(library, context, rule);
      }
      return context;
    } catch (RuntimeException e) {
      library.seccomp_release(context);
      throw e;
    }
  }

  private static void add(LibSeccomp library, Pointer context, Rule rule) {
    int syscall = library.seccomp_syscall_resolve_name(rule.syscall());
    if (syscall == LibSeccomp.NR_SCMP_ERROR) {
      throw unknown(List.of(rule.syscall()));
    }
    List<Condition> conditions = rule.conditions();
    Memory array = null;
    if (!conditions.isEmpty()) {
      array = new Memory((long) LibSeccomp.ARG_CMP_SIZE * conditions.size());
      for (int i = 0; i < conditions.size(); i++) {
        Condition condition = conditions.get(i);
        long offset = (long) LibSeccomp.ARG_CMP_SIZE * i;
        array.setInt(offset, condition.argument());
        switch (condition.comparison()) {
          case EQUAL -> {
            array.setInt(offset + 4, LibSeccomp.CMP_EQ);
            array.setLong(offset + 8, condition.value());
            array.setLong(offset + 16, 0);
          }
          case NOT_EQUAL -> {
            array.setInt(offset + 4, LibSeccomp.CMP_NE);
            array.setLong(offset + 8, condition.value());
            array.setLong(offset + 16, 0);
          }
          case MASKED_EQUAL -> {
            array.setInt(offset + 4, LibSeccomp.CMP_MASKED_EQ);
            array.setLong(offset + 8, condition.mask());
            array.setLong(offset + 16, condition.value());
          }
        }
      }
    }
    int action = LibSeccomp.ACT_ERRNO | rule.errno();
    int added = library.seccomp_rule_add_array(context, action, syscall, conditions.size(), array);
    // The message is built only on failure: describing the rule calls the record's toString, whose
    // first call bootstraps java.lang.runtime.ObjectMethods: a third of a short-lived capability
    // host's samples in a profile (docs/BENCHMARKS.md).
    if (added != 0) {
      check(added, "adding the rule " + rule);
    }
  }

  private static byte[] export(LibSeccomp library, Pointer context) {
    LibC files = NativeLibraries.libc();
    int fd = files.memfd_create(CStrings.of("seccomp-bpf"), LibC.MFD_CLOEXEC);
    if (fd < 0) {
      throw new SeccompException(SeccompException.SECCOMP_FAILED, "cannot create a memory file to export the filter into: errno " + Native.getLastError());
    }
    try {
      check(library.seccomp_export_bpf(context, fd), "exporting the filter as BPF");
      if (files.lseek(fd, 0, LibC.SEEK_SET) != 0) {
        throw new SeccompException(SeccompException.SECCOMP_FAILED, "cannot rewind the exported filter: errno " + Native.getLastError());
      }
      ByteArrayOutputStream program = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      while (true) {
        long count = files.read(fd, buffer, buffer.length);
        if (count < 0) {
          throw new SeccompException(SeccompException.SECCOMP_FAILED, "cannot read the exported filter back: errno " + Native.getLastError());
        }
        if (count == 0) {
          return program.toByteArray();
        }
        program.write(buffer, 0, (int) count);
      }
    } finally {
      files.close(fd);
    }
  }

  private static void check(int result, String step) {
    if (result != 0) {
      throw new SeccompException(SeccompException.SECCOMP_FAILED, "libseccomp failed " + step + ": errno " + -result);
    }
  }

  private static SeccompException unknown(List<String> names) {
    return new SeccompException(
        SeccompException.SECCOMP_UNKNOWN_SYSCALL,
        "libseccomp knows no system call named " + String.join(", ", names) + "; check the spelling (as in the syscalls(2) manual page)");
  }

  private static LibSeccomp library() {
    Loaded loaded = Loaded.INSTANCE;
    if (loaded.library == null) {
      throw new SeccompException(SeccompException.SECCOMP_UNAVAILABLE, loaded.problem);
    }
    return loaded.library;
  }

  /** libseccomp, loaded once per class loader on first use, or why it could not be. */
  private static final class Loaded {
    static final Loaded INSTANCE = load();

    final @Nullable LibSeccomp library;
    final String problem;

    private Loaded(@Nullable LibSeccomp library, String problem) {
      this.library = library;
      this.problem = problem;
    }

    private static Loaded load() {
      try {
        return new Loaded(LibSeccomp.load(), "");
      } catch (LinkageError | RuntimeException e) {
        return new Loaded(
            null,
            "cannot load " + LibSeccomp.LIBRARY + " through JNA (install libseccomp2): " + e.getClass().getSimpleName() + ": " + e.getMessage());
      }
    }
  }

  /**
   * Whether libseccomp can be used here.
   *
   * @param available whether it loaded
   * @param reason why not; empty when available
   */
  public record Availability(boolean available, String reason) {
    public Availability {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** How a {@link Condition} compares a system call argument. */
  public enum Comparison {
    /** {@code argument == value}, all 64 bits. */
    EQUAL,
    /** {@code argument != value}, all 64 bits. */
    NOT_EQUAL,
    /** {@code (argument & mask) == value}. */
    MASKED_EQUAL
  }

  /**
   * One comparison of a system call argument, as the kernel sees it: a 64-bit register.
   *
   * <p>An argument the kernel reads as a C {@code int} (the family of {@code socket}) is compared
   * with {@link #intEqual}: the caller controls the register's upper half, which the kernel
   * ignores but a 64-bit {@link #equal} would see, so {@code equal(0, 40)} does not match a
   * call whose register holds {@code 0x1_0000_0028} although the kernel reads 40 from it. A
   * {@link #notEqual} on such an argument errs the safe way for a deny rule: junk in the upper half
   * makes it hold, so the call is denied.
   *
   * @param argument the argument's position, 0 to 5
   * @param comparison how it is compared
   * @param mask the bits compared ({@link Comparison#MASKED_EQUAL}); all bits otherwise
   * @param value the value compared with
   */
  public record Condition(int argument, Comparison comparison, long mask, long value) {
    public Condition {
      if (argument < 0 || argument >= SYSCALL_ARGUMENTS) {
        throw new IllegalArgumentException("a system call argument is numbered 0 to 5, not " + argument);
      }
      Objects.requireNonNull(comparison, "comparison");
      if (comparison != Comparison.MASKED_EQUAL && mask != -1L) {
        throw new IllegalArgumentException(comparison + " compares all bits; a mask goes with MASKED_EQUAL only");
      }
      if ((value & ~mask) != 0) {
        throw new IllegalArgumentException(
            "value 0x" + Long.toHexString(value) + " has bits outside the mask 0x" + Long.toHexString(mask) + ", so the condition could never hold");
      }
    }

    /** {@code argument == value}, all 64 bits (for pointer-sized and {@code long} arguments). */
    public static Condition equal(int argument, long value) {
      return new Condition(argument, Comparison.EQUAL, -1L, value);
    }

    /** {@code argument != value}, all 64 bits. */
    public static Condition notEqual(int argument, long value) {
      return new Condition(argument, Comparison.NOT_EQUAL, -1L, value);
    }

    /** {@code (argument & mask) == value}; for a flag, {@code maskedEqual(n, FLAG, FLAG)} holds when it is set. */
    public static Condition maskedEqual(int argument, long mask, long value) {
      return new Condition(argument, Comparison.MASKED_EQUAL, mask, value);
    }

    /** The low 32 bits of the argument equal {@code value}: what the kernel reads for an {@code int} argument. */
    public static Condition intEqual(int argument, int value) {
      return maskedEqual(argument, 0xffff_ffffL, Integer.toUnsignedLong(value));
    }
  }

  /**
   * One denied system call.
   *
   * @param syscall its name, as libseccomp and the syscalls(2) manual page spell it
   * @param errno the error the call fails with, 1 to 4095
   * @param conditions all must hold for the call to be denied; none denies it always
   */
  public record Rule(String syscall, int errno, List<Condition> conditions) {
    public Rule {
      Objects.requireNonNull(syscall, "syscall");
      if (syscall.isBlank()) {
        throw new IllegalArgumentException("a rule needs a system call name");
      }
      if (errno < 1 || errno > MAX_ERRNO) {
        throw new IllegalArgumentException("the error of a denied " + syscall + " must be 1 to " + MAX_ERRNO + ", not " + errno);
      }
      conditions = List.copyOf(Objects.requireNonNull(conditions, "conditions"));
      if (conditions.size() > SYSCALL_ARGUMENTS) {
        throw new IllegalArgumentException("a rule for " + syscall + " compares at most 6 arguments, not " + conditions.size());
      }
    }
  }

  /** Collects rules; {@link #build()} checks every name with libseccomp. */
  public static final class Builder {
    private final List<Rule> rules = new ArrayList<>();

    private Builder() {}

    /** Denies {@code syscall} with {@code errno} when all {@code conditions} hold (always, with none). */
    public Builder deny(String syscall, int errno, Condition... conditions) {
      rules.add(new Rule(syscall, errno, Arrays.asList(Objects.requireNonNull(conditions, "conditions"))));
      return this;
    }

    /**
     * The filter.
     *
     * @throws SeccompException {@code SECCOMP_UNKNOWN_SYSCALL} naming every rule's name that
     *     libseccomp does not know; {@code SECCOMP_UNAVAILABLE} without libseccomp, which is needed
     *     to tell
     */
    public SeccompFilter build() {
      LibSeccomp library = library();
      Set<String> unknown = new LinkedHashSet<>();
      for (Rule rule : rules) {
        if (library.seccomp_syscall_resolve_name(rule.syscall()) == LibSeccomp.NR_SCMP_ERROR) {
          unknown.add(rule.syscall());
        }
      }
      if (!unknown.isEmpty()) {
        throw unknown(List.copyOf(unknown));
      }
      return new SeccompFilter(rules);
    }
  }
}
