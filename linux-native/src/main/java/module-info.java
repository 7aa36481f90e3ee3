/**
 * Linux system calls the backends and the repository snapshot need (seccomp, memfd, statx,
 * getdents64, posix_spawn), through JNA.
 *
 * <p>Nothing is opened to JNA: it reaches the library interfaces in {@code internal} only through
 * {@link java.lang.reflect.Proxy}, which the JDK lets into a package that is not exported, and this
 * module has no {@code Structure} or {@code Callback} subclass, which JNA would read reflectively
 * (one added later needs {@code opens dev.capability.linux.internal to com.sun.jna}).
 */
// JNA is an automatic module, named by its Automatic-Module-Name (com.sun.jna).
@SuppressWarnings("requires-automatic")
module dev.capability.linux {
  requires static transitive org.jspecify;
  requires com.sun.jna;

  exports dev.capability.linux;
}
