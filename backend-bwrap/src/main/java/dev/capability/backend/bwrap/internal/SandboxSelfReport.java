package dev.capability.backend.bwrap.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a probe sandbox saw of itself, copied by it into a writable root: its {@code
 * /proc/self/status}, {@code /proc/self/uid_map}, {@code /proc/self/mountinfo} and host name; and
 * the host uid that owns the copies, which is the uid the sandbox really ran as.
 *
 * @param status the {@code Key: value} lines of its status
 * @param environment the names of its environment variables (never the values)
 * @param uidMap its uid map, as read inside
 * @param mounts mount point to per-mount options, from its mountinfo
 * @param hostname its host name
 * @param hostOwner the host uid owning the files it wrote
 */
record SandboxSelfReport(
    Map<String, String> status,
    List<String> environment,
    String uidMap,
    Map<String, String> mounts,
    String hostname,
    int hostOwner) {
  private static final List<String> CAPABILITY_SETS =
      List.of("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb");

  SandboxSelfReport {
    status = Map.copyOf(status);
    environment = List.copyOf(environment);
    mounts = Map.copyOf(mounts);
  }

  static SandboxSelfReport parse(
      String status,
      String environ,
      String uidMap,
      String mountinfo,
      String hostname,
      int hostOwner) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String line : status.split("\n")) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
      }
    }
    Map<String, String> mounts = new LinkedHashMap<>();
    for (String line : mountinfo.split("\n")) {
      String[] f = line.split(" ");
      if (f.length > 6) {
        mounts.put(CgroupParent.unescape(f[4]), f[5]);
      }
    }
    List<String> names = new ArrayList<>();
    for (String variable : environ.split("\0")) {
      if (!variable.isEmpty()) {
        int equals = variable.indexOf('=');
        names.add(equals < 0 ? variable : variable.substring(0, equals));
      }
    }
    return new SandboxSelfReport(
        fields, names, uidMap.strip(), mounts, hostname.strip(), hostOwner);
  }

  /** True when the sandbox does not share the host's full uid map. */
  boolean ownUserNamespace() {
    String[] f = uidMap.trim().split("\\s+");
    boolean hostMap = f.length == 3 && f[0].equals("0") && f[1].equals("0") && !f[2].equals("1");
    return !uidMap.isEmpty() && !hostMap;
  }

  /**
   * True when the reporting process, a short-lived {@code cp} that bwrap's init started, has one of
   * the first pids of a fresh PID namespace: only a new namespace makes it so. The sandbox's own
   * {@code /proc} shows only that namespace.
   */
  boolean freshPidNamespace() {
    try {
      String[] pids = status.getOrDefault("NSpid", "").trim().split("\\s+");
      long pid = Long.parseLong(status.getOrDefault("Pid", ""));
      return pid > 1 && pid < 10 && pids.length == 1 && pids[0].equals(Long.toString(pid));
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** True when every capability set is empty. */
  boolean noCapabilities() {
    return CAPABILITY_SETS.stream()
        .allMatch(set -> status.containsKey(set) && status.get(set).matches("0+"));
  }

  boolean noNewPrivileges() {
    return "1".equals(status.get("NoNewPrivs"));
  }

  /** True when {@code mountPoint} is mounted read-only. */
  boolean readOnly(String mountPoint) {
    String options = mounts.get(mountPoint);
    return options != null && List.of(options.split(",")).contains("ro");
  }

  /** The mount points at or below {@code directory}. */
  List<String> mountsUnder(String directory) {
    return mounts.keySet().stream()
        .filter(m -> m.equals(directory) || m.startsWith(directory + "/"))
        .toList();
  }
}
