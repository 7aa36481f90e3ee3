package dev.capability.capability.runtime.internal.exec;

import dev.capability.linux.SeccompFilter;

/**
 * Takes from the capability host JVM the power to start programs: a seccomp filter on every thread
 * that fails {@code execve} and {@code execveat} with {@code EPERM}. A JVM starts a process only by
 * executing a program ({@code ProcessBuilder} and {@code Runtime.exec} run the JDK's spawn helper),
 * so however the capability reaches them, by reflection, method handles or native code, the start
 * fails. The filter outlives nothing: it dies with the JVM, and cannot be removed from inside it.
 */
final class ProgramStarts {
  private ProgramStarts() {}

  /**
   * Installs the filter on this JVM.
   *
   * @throws dev.capability.linux.SeccompException when libseccomp is missing or the kernel refuses
   */
  static void forbid() {
    SeccompFilter.builder().deny("execve", SeccompFilter.EPERM).deny("execveat", SeccompFilter.EPERM).build().installOnThisProcess();
  }
}
