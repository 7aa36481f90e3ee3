package dev.capability.backend.bwrap.internal;

/**
 * The optional bwrap features the probe found working on this host; everything else the backend
 * uses is required.
 *
 * @param networkNamespace {@code --unshare-net} works
 * @param disableUserns {@code --disable-userns} works (bubblewrap 0.8.0 or later)
 * @param sizedTmpfs {@code --size} with {@code --tmpfs} works
 * @param seccomp the project's seccomp policy is loaded with {@code --seccomp} (libseccomp is
 *     available and bwrap accepts the program)
 */
record SandboxFlags(
    boolean networkNamespace, boolean disableUserns, boolean sizedTmpfs, boolean seccomp) {
  static final SandboxFlags ALL = new SandboxFlags(true, true, true, true);
  static final SandboxFlags BASE = new SandboxFlags(false, false, false, false);

  /** These flags, with seccomp only where libseccomp can compile the policy. */
  SandboxFlags withSeccompIf(boolean available) {
    return new SandboxFlags(networkNamespace, disableUserns, sizedTmpfs, seccomp && available);
  }
}
