package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.NetworkMode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The options bwrap reads from its argument file: namespaces, lifetime, the filesystem plan, the
 * working directory and the command's environment. They never appear on a command line, where any
 * host user could read them in {@code /proc/<pid>/cmdline}.
 */
final class BwrapArguments {
  private BwrapArguments() {}

  /**
   * @param flags the optional features to use
   * @param network NONE or FILTERED for a private network namespace with only a loopback device
   * @param hostname the sandbox's host name
   * @param plan the filesystem, in order
   * @param descriptors the bind sources bwrap gets by descriptor, and their descriptors, one per
   *     bind of the source in plan order
   * @param seccompDescriptor the descriptor bwrap reads the seccomp program from, if any
   * @param workingDirectory where the command starts
   * @param environment the command's complete environment
   */
  static List<String> options(
      SandboxFlags flags,
      NetworkMode network,
      String hostname,
      SandboxLayout.Plan plan,
      Map<String, List<Integer>> descriptors,
      OptionalInt seccompDescriptor,
      Path workingDirectory,
      Map<String, String> environment) {
    Objects.requireNonNull(network, "network");
    List<String> options = new ArrayList<>();
    options.addAll(
        List.of(
            "--unshare-user",
            "--unshare-pid",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup"));
    if (network != NetworkMode.HOST) {
      options.add("--unshare-net");
    }
    if (flags.disableUserns()) {
      options.addAll(List.of("--disable-userns", "--assert-userns-disabled"));
    }
    // bwrap's own init stays PID 1, so the command keeps ordinary signal semantics (as PID 1 it
    // could not even kill itself). When bwrap exits, die-with-parent kills that init, and with
    // it the kernel kills the whole PID namespace.
    options.addAll(List.of("--die-with-parent", "--new-session"));
    options.addAll(List.of("--cap-drop", "ALL", "--hostname", hostname, "--clearenv"));
    seccompDescriptor.ifPresent(fd -> options.addAll(List.of("--seccomp", Integer.toString(fd))));
    Map<String, Iterator<Integer>> unused = new HashMap<>();
    descriptors.forEach((source, list) -> unused.put(source, list.iterator()));
    for (MountOp mount : plan.mounts()) {
      Iterator<Integer> next = mount.isBind() ? unused.get(mount.source()) : null;
      options.addAll(
          mount.options(
              next != null && next.hasNext() ? OptionalInt.of(next.next()) : OptionalInt.empty()));
    }
    options.addAll(List.of("--chdir", workingDirectory.toString()));
    for (Map.Entry<String, String> variable : environment.entrySet()) {
      options.addAll(List.of("--setenv", variable.getKey(), variable.getValue()));
    }
    return List.copyOf(options);
  }

  /** NUL-terminated strings, as {@code bwrap --args} reads them. */
  static byte[] encode(List<String> options, Charset charset) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String option : options) {
      out.writeBytes(option.getBytes(charset));
      out.write(0);
    }
    return out.toByteArray();
  }
}
