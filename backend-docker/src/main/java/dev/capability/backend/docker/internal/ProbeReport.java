package dev.capability.backend.docker.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a probe container saw of itself. The probe runs the host's {@code cat} on {@link #FILES}:
 * {@code /proc/sys/kernel/ostype} ({@code Linux}) separates the cgroup files, of which only the
 * ones of this host's cgroup version exist.
 *
 * @param environmentBytes bytes of {@code /proc/1/environ} and {@code /proc/self/environ}; 0 when
 *     the container got exactly the (empty) probe environment
 * @param status {@code /proc/self/status} fields
 * @param mounts mount point to its mount options, from {@code /proc/self/mountinfo}
 * @param mountTypes mount point to its file system type
 * @param interfaces network interfaces from {@code /proc/self/net/dev}
 * @param hostname the container's host name
 * @param memoryLimit the cgroup's memory limit, as written
 * @param pidsLimit the cgroup's process limit, as written
 * @param cpuLimit the cgroup's CPU quota, as written
 * @param stackLimit the soft limit of the stack size in bytes from {@code /proc/self/limits}, as
 *     written ({@code unlimited} or a number), which sets how many bytes of arguments and
 *     environment an {@code execve} in the container accepts
 */
record ProbeReport(
    int environmentBytes,
    Map<String, String> status,
    Map<String, String> mounts,
    Map<String, String> mountTypes,
    List<String> interfaces,
    String hostname,
    Optional<String> memoryLimit,
    Optional<String> pidsLimit,
    Optional<String> cpuLimit,
    Optional<String> stackLimit) {

  static final String SEPARATOR = "/proc/sys/kernel/ostype";

  static final List<String> FILES =
      List.of(
          "/proc/1/environ",
          "/proc/self/environ",
          "/proc/self/status",
          "/proc/self/mountinfo",
          "/proc/self/net/dev",
          "/proc/sys/kernel/hostname",
          SEPARATOR,
          "/sys/fs/cgroup/memory/memory.limit_in_bytes",
          "/sys/fs/cgroup/memory.max",
          SEPARATOR,
          "/sys/fs/cgroup/pids/pids.max",
          "/sys/fs/cgroup/pids.max",
          SEPARATOR,
          "/sys/fs/cgroup/cpu/cpu.cfs_quota_us",
          "/sys/fs/cgroup/cpu.max",
          SEPARATOR,
          "/proc/self/limits");

  private static final Pattern MOUNTINFO =
      Pattern.compile("\\d+ \\d+ \\d+:\\d+ \\S+ (\\S+) (\\S+)(?: (?!- )\\S+)* - (\\S+) \\S+ ?(\\S*)");
  private static final Pattern INTERFACE = Pattern.compile("\\s*([^\\s:]+):\\s*\\d.*");

  ProbeReport {
    status = Map.copyOf(status);
    mounts = Map.copyOf(mounts);
    mountTypes = Map.copyOf(mountTypes);
    interfaces = List.copyOf(interfaces);
  }

  /** Parses the probe's stdout; empty when it is not what the probe prints. */
  static Optional<ProbeReport> parse(String output) {
    int name = output.indexOf("Name:");
    if (name < 0) {
      return Optional.empty();
    }
    List<String> lines = List.of(output.substring(name).split("\n", -1));
    Map<String, String> status = new LinkedHashMap<>();
    Map<String, String> mounts = new LinkedHashMap<>();
    Map<String, String> types = new LinkedHashMap<>();
    List<String> interfaces = new ArrayList<>();
    int i = 0;
    while (i < lines.size() && !MOUNTINFO.matcher(lines.get(i)).matches()) {
      String line = lines.get(i);
      int colon = line.indexOf(':');
      if (colon > 0) {
        status.put(line.substring(0, colon), line.substring(colon + 1).strip());
      }
      i++;
    }
    while (i < lines.size()) {
      Matcher m = MOUNTINFO.matcher(lines.get(i));
      if (!m.matches()) {
        break;
      }
      String point = Path.of(m.group(1)).normalize().toString();
      mounts.put(point, m.group(2) + "," + m.group(4));
      types.put(point, m.group(3));
      i++;
    }
    while (i < lines.size() && !lines.get(i).startsWith("Inter-")) {
      i++;
    }
    i += 2;
    while (i < lines.size()) {
      Matcher m = INTERFACE.matcher(lines.get(i));
      if (!m.matches()) {
        break;
      }
      interfaces.add(m.group(1));
      i++;
    }
    if (i >= lines.size()) {
      return Optional.empty();
    }
    String hostname = lines.get(i).strip();
    List<List<String>> sections = new ArrayList<>();
    List<String> current = null;
    for (i = i + 1; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.equals("Linux")) {
        current = new ArrayList<>();
        sections.add(current);
      } else if (current != null && !line.isEmpty()) {
        current.add(line);
      }
    }
    int environment = output.substring(0, name).length();
    return Optional.of(
        new ProbeReport(
            environment,
            status,
            mounts,
            types,
            interfaces,
            hostname,
            section(sections, 0),
            section(sections, 1),
            section(sections, 2),
            stackLimit(sections)));
  }

  private static Optional<String> stackLimit(List<List<String>> sections) {
    if (sections.size() < 4) {
      return Optional.empty();
    }
    return sections.get(3).stream()
        .filter(line -> line.startsWith("Max stack size "))
        .map(line -> line.substring("Max stack size ".length()).strip().split("\\s+")[0])
        .findFirst();
  }

  private static Optional<String> section(List<List<String>> sections, int index) {
    if (index >= sections.size() || sections.get(index).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(sections.get(index).get(0));
  }

  /** True when every capability set in the status is empty. */
  boolean noCapabilities() {
    return List.of("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb").stream()
        .allMatch(set -> status.containsKey(set) && status.get(set).matches("0+"));
  }

  boolean readOnly(String mountPoint) {
    String options = mounts.get(mountPoint);
    return options != null && List.of(options.split(",")).contains("ro");
  }

  /** Mount points at or below {@code directory}. */
  List<String> mountsUnder(String directory) {
    return mounts.keySet().stream()
        .filter(p -> p.equals(directory) || p.startsWith(directory + "/"))
        .sorted()
        .toList();
  }

  /** The numbers of the {@code Uid} or {@code Gid} status line. */
  List<String> ids(String field) {
    String value = status.getOrDefault(field, "");
    return value.isBlank() ? List.of() : List.of(value.split("\\s+"));
  }
}
