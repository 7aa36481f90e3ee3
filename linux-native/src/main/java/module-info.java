/**
 * Linux system calls the backends need (seccomp, memfd, statx, posix_spawn), through JNA. JNA
 * reaches the library interfaces in {@code internal} reflectively, so that package is open to JNA
 * alone.
 */
// JNA is an automatic module, named by its Automatic-Module-Name (com.sun.jna).
@SuppressWarnings("requires-automatic")
module dev.capability.linux {
  requires com.sun.jna;

  exports dev.capability.linux;

  opens dev.capability.linux.internal to com.sun.jna;
}
