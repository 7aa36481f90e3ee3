package dev.capability.backend.bwrap.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The host command line that becomes the sandbox. Each program execs the next in the same process,
 * so the pid the JVM started is bwrap's:
 *
 * <pre>
 * [prlimit --cpu=..:.. ... --]                  the configured rlimits, inherited by everything
 * flock --no-fork --shared ARGS                 opens bwrap's argument file on the lowest free
 *                                               descriptor, the one after those handed to bwrap
 * setpriv --reuid=U --regid=G --clear-groups    never real root (only when the JVM is root)
 *         --inh-caps=-all --bounding-set=-all --no-new-privs --
 * bwrap --unsetenv CAPABILITY_RUN_ID --args N -- [env -u PWD --] EXECUTABLE ARGUMENTS...
 * </pre>
 *
 * <p>The JVM hands the chain the bind sources it pinned (and the seccomp filter) as descriptors 3
 * onwards; every program of the chain keeps them, and bwrap closes each once used. The argument
 * file is opened while still root, so it can stay readable by this JVM's user alone; bwrap reads
 * it and closes its descriptor before the command runs. All of these programs
 * start with an empty environment: the command's environment reaches bwrap only through the file,
 * so variables such as {@code LD_PRELOAD} never act on the unsandboxed launcher. bwrap always sets
 * {@code PWD}; unless the spec sets it to the working directory itself, {@code env} (from the
 * sandbox's read-only {@code /usr}) removes it before the command runs. The no-op {@code
 * --unsetenv} of a name unique to the run marks bwrap and the sandbox's init (a fork of bwrap) so
 * that they can be found in {@code /proc} once bwrap has exited.
 */
final class LauncherCommand {
  private LauncherCommand() {}

  /** The bwrap argument that names a run: a variable name nothing ever sets. */
  static String runToken(String runId) {
    return "CAPABILITY_RUN_" + runId;
  }

  static List<String> build(
      String runId,
      HostTools tools,
      SandboxIdentity identity,
      ResourceLimits limits,
      Path argumentFile,
      int argumentDescriptor,
      Path executable,
      List<String> arguments,
      boolean keepPwd) {
    List<String> argv = new ArrayList<>();
    if (limits.needsRlimits()) {
      argv.add(
          tools
              .prlimit()
              .orElseThrow(() -> new IllegalStateException("rlimits configured but no prlimit"))
              .toString());
      argv.addAll(limits.prlimitOptions());
      argv.add("--");
    }
    argv.addAll(
        List.of(tools.flock().toString(), "--no-fork", "--shared", argumentFile.toString()));
    if (identity.dropsRoot()) {
      argv.add(
          tools
              .setpriv()
              .orElseThrow(() -> new IllegalStateException("running as root but no setpriv"))
              .toString());
      argv.addAll(
          List.of(
              "--reuid=" + identity.uid(),
              "--regid=" + identity.gid(),
              "--clear-groups",
              "--inh-caps=-all",
              "--bounding-set=-all",
              "--no-new-privs",
              "--"));
    } else if (tools.setpriv().isPresent()) {
      argv.addAll(
          List.of(tools.setpriv().get().toString(), "--inh-caps=-all", "--no-new-privs", "--"));
    }
    argv.addAll(
        List.of(
            tools.bwrap().toString(),
            "--unsetenv",
            runToken(runId),
            "--args",
            Integer.toString(argumentDescriptor),
            "--"));
    if (!keepPwd) {
      argv.addAll(List.of(tools.env().toString(), "-u", "PWD", "--"));
    }
    argv.add(executable.toString());
    argv.addAll(arguments);
    return List.copyOf(argv);
  }
}
