package dev.capability.linux.internal;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * The libseccomp calls {@link dev.capability.linux.SeccompFilter} makes, bound by JNA to the
 * system's {@code libseccomp.so.2}. Every call that can fail returns a negative {@code errno}
 * value; none sets {@code errno}. Constants are those of libseccomp 2.5's {@code seccomp.h}.
 */
public interface LibSeccomp extends Library {
  /** The library's file name: the runtime package (Debian's {@code libseccomp2}) ships no unversioned link. */
  String LIBRARY = "libseccomp.so.2";

  /** {@code SCMP_ACT_ALLOW}. */
  int ACT_ALLOW = 0x7fff0000;
  /** {@code SCMP_ACT_KILL_PROCESS}. */
  int ACT_KILL_PROCESS = 0x80000000;
  /** {@code SCMP_ACT_ERRNO(0)}; the error number goes in the low 16 bits. */
  int ACT_ERRNO = 0x00050000;

  /** {@code SCMP_FLTATR_ACT_BADARCH}: what a system call of an architecture not in the filter gets. */
  int FLTATR_ACT_BADARCH = 2;
  /** {@code SCMP_FLTATR_CTL_NNP}: set {@code no_new_privs} before loading. */
  int FLTATR_CTL_NNP = 3;
  /** {@code SCMP_FLTATR_CTL_TSYNC}: load the filter into every thread of the process. */
  int FLTATR_CTL_TSYNC = 4;

  /** {@code __NR_SCMP_ERROR}: the name is no system call libseccomp knows. */
  int NR_SCMP_ERROR = -1;

  /** {@code SCMP_CMP_NE}. */
  int CMP_NE = 1;
  /** {@code SCMP_CMP_EQ}. */
  int CMP_EQ = 4;
  /** {@code SCMP_CMP_MASKED_EQ}: {@code (argument & datum_a) == datum_b}. */
  int CMP_MASKED_EQ = 7;

  /**
   * {@code sizeof(struct scmp_arg_cmp)}: {@code unsigned int arg}, {@code enum scmp_compare op},
   * then two {@code uint64_t} data, at offsets 0, 4, 8 and 16.
   */
  int ARG_CMP_SIZE = 24;

  Pointer seccomp_init(int defaultAction);

  void seccomp_release(Pointer context);

  int seccomp_syscall_resolve_name(String name);

  int seccomp_rule_add_array(Pointer context, int action, int syscall, int conditionCount, Pointer conditions);

  int seccomp_attr_set(Pointer context, int attribute, int value);

  int seccomp_export_bpf(Pointer context, int fd);

  int seccomp_load(Pointer context);

  /** Loads the library; an {@link UnsatisfiedLinkError} (or JNA's own failure) says why it cannot be. */
  static LibSeccomp load() {
    return Native.load(LIBRARY, LibSeccomp.class);
  }
}
