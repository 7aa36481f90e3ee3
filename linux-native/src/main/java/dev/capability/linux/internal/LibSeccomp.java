package dev.capability.linux.internal;

import com.sun.jna.Function;
import com.sun.jna.Library;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.util.Map;

/**
 * The libseccomp calls {@link dev.capability.linux.SeccompFilter} makes, on the system's {@code
 * libseccomp.so.2}, each through JNA's {@link Function} for the symbol, looked up once. An
 * interface mapping ({@code Native.load}) would generate a dynamic proxy class when the library is
 * loaded, and JNA's direct mapping ({@code Native.register}) initialises JNA's structure machinery
 * (its {@code ffi_type} structures, with their reflection and annotation proxies); either costs more
 * than the few calls a capability host makes before it exits (docs/BENCHMARKS.md). A call here goes
 * down the same path as an interface method's, without the proxy: JNA converts the arguments (a
 * {@code String} in JNA's default encoding, as the interface mapping did) and calls the function.
 * Every call that can fail returns a negative {@code errno} value; none sets {@code errno}.
 * Constants are those of libseccomp 2.5's {@code seccomp.h}.
 */
public final class LibSeccomp {
  /** The library's file name: the runtime package (Debian's {@code libseccomp2}) ships no unversioned link. */
  public static final String LIBRARY = "libseccomp.so.2";

  /** {@code SCMP_ACT_ALLOW}. */
  public static final int ACT_ALLOW = 0x7fff0000;
  /** {@code SCMP_ACT_KILL_PROCESS}. */
  public static final int ACT_KILL_PROCESS = 0x80000000;
  /** {@code SCMP_ACT_ERRNO(0)}; the error number goes in the low 16 bits. */
  public static final int ACT_ERRNO = 0x00050000;

  /** {@code SCMP_FLTATR_ACT_BADARCH}: what a system call of an architecture not in the filter gets. */
  public static final int FLTATR_ACT_BADARCH = 2;
  /** {@code SCMP_FLTATR_CTL_NNP}: set {@code no_new_privs} before loading. */
  public static final int FLTATR_CTL_NNP = 3;
  /** {@code SCMP_FLTATR_CTL_TSYNC}: load the filter into every thread of the process. */
  public static final int FLTATR_CTL_TSYNC = 4;

  /** {@code __NR_SCMP_ERROR}: the name is no system call libseccomp knows. */
  public static final int NR_SCMP_ERROR = -1;

  /** {@code SCMP_CMP_NE}. */
  public static final int CMP_NE = 1;
  /** {@code SCMP_CMP_EQ}. */
  public static final int CMP_EQ = 4;
  /** {@code SCMP_CMP_MASKED_EQ}: {@code (argument & datum_a) == datum_b}. */
  public static final int CMP_MASKED_EQ = 7;

  /**
   * {@code sizeof(struct scmp_arg_cmp)}: {@code unsigned int arg}, {@code enum scmp_compare op},
   * then two {@code uint64_t} data, at offsets 0, 4, 8 and 16.
   */
  public static final int ARG_CMP_SIZE = 24;

  private final Function init;
  private final Function release;
  private final Function resolveName;
  private final Function ruleAddArray;
  private final Function attrSet;
  private final Function exportBpf;
  private final Function load;

  private LibSeccomp(NativeLibrary library) {
    init = library.getFunction("seccomp_init");
    release = library.getFunction("seccomp_release");
    resolveName = library.getFunction("seccomp_syscall_resolve_name");
    ruleAddArray = library.getFunction("seccomp_rule_add_array");
    attrSet = library.getFunction("seccomp_attr_set");
    exportBpf = library.getFunction("seccomp_export_bpf");
    load = library.getFunction("seccomp_load");
  }

  /**
   * Loads the library and looks up every function this class calls, with the options an interface
   * mapping would load it with. An {@link UnsatisfiedLinkError} (or JNA's own failure) says why it
   * cannot be.
   */
  public static LibSeccomp load() {
    return new LibSeccomp(NativeLibrary.getInstance(LIBRARY, Map.of(Library.OPTION_CLASSLOADER, LibSeccomp.class.getClassLoader())));
  }

  public Pointer seccomp_init(int defaultAction) {
    return init.invokePointer(new Object[] {defaultAction});
  }

  public void seccomp_release(Pointer context) {
    release.invokeVoid(new Object[] {context});
  }

  public int seccomp_syscall_resolve_name(String name) {
    return resolveName.invokeInt(new Object[] {name});
  }

  public int seccomp_rule_add_array(Pointer context, int action, int syscall, int conditionCount, Pointer conditions) {
    return ruleAddArray.invokeInt(new Object[] {context, action, syscall, conditionCount, conditions});
  }

  public int seccomp_attr_set(Pointer context, int attribute, int value) {
    return attrSet.invokeInt(new Object[] {context, attribute, value});
  }

  public int seccomp_export_bpf(Pointer context, int fd) {
    return exportBpf.invokeInt(new Object[] {context, fd});
  }

  public int seccomp_load(Pointer context) {
    return load.invokeInt(new Object[] {context});
  }
}
