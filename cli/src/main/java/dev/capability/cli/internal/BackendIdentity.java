package dev.capability.cli.internal;

import dev.capability.kernel.core.CommandKernel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The identity of what a backend's probe result depends on, cheap to read without running
 * anything: the kernel version, the JVM, the code of the backend's provider (its jar's path, size,
 * modification time and inode), the boot (a reboot brings a new kernel and resets sysctls), the
 * user, and per backend the binaries and daemon files it uses: for {@code bwrap} the {@code bwrap},
 * {@code flock} and {@code setpriv} binaries and the user-namespace sysctls; for {@code docker}
 * the daemon's address settings, the image the operator names ({@code CAPABILITY_DOCKER_IMAGE}),
 * its socket (a restarted daemon makes a new one), its pid file and the {@code dockerd} binary;
 * for {@code process} the {@code setsid} and {@code cat} binaries.
 * A backend this class does not know has no identity: it is probed live every time.
 */
final class BackendIdentity {
  /** The Docker backend's image from the environment ({@code docs/backends/docker.md}). */
  private static final String DOCKER_IMAGE_VARIABLE = "CAPABILITY_DOCKER_IMAGE";
  private static final List<String> SYSTEM_DIRECTORIES = List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin");

  private BackendIdentity() {}

  /** The SHA-256 of the identity of backend {@code id}, or empty when {@code id} is not one this class knows. */
  static Optional<String> of(String id, Class<?> provider, Map<String, String> environment) {
    List<String> facts = new ArrayList<>();
    switch (id) {
      case "bwrap" -> {
        tools(facts, "bwrap", "flock", "setpriv");
        facts.add(content(Path.of("/proc/sys/kernel/unprivileged_userns_clone")));
        facts.add(content(Path.of("/proc/sys/user/max_user_namespaces")));
        facts.add(content(Path.of("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")));
      }
      case "docker" -> {
        String host = environment.getOrDefault("DOCKER_HOST", "unix:///var/run/docker.sock");
        facts.add("DOCKER_HOST=" + host);
        facts.add("DOCKER_TLS_VERIFY=" + environment.getOrDefault("DOCKER_TLS_VERIFY", ""));
        facts.add("DOCKER_CERT_PATH=" + environment.getOrDefault("DOCKER_CERT_PATH", ""));
        // Another image is another probe: what it holds decides what the probe container shows.
        String image = environment.get(DOCKER_IMAGE_VARIABLE);
        facts.add(DOCKER_IMAGE_VARIABLE + (image == null ? " unset" : "=" + image));
        if (!host.startsWith("unix://")) {
          // A daemon across the network has no identity readable here; it is probed every time.
          return Optional.empty();
        }
        facts.add(file(Path.of(host.substring("unix://".length()))));
        facts.add(file(Path.of("/run/docker.pid")) + " " + content(Path.of("/run/docker.pid")));
        tools(facts, "dockerd");
      }
      case "process" -> tools(facts, "setsid", "cat");
      default -> {
        return Optional.empty();
      }
    }
    facts.add("id=" + id);
    facts.add("kernel=" + CommandKernel.version());
    facts.add("java=" + System.getProperty("java.home") + " " + Runtime.version());
    facts.add("code=" + code(provider));
    facts.add("boot=" + content(Path.of("/proc/sys/kernel/random/boot_id")));
    facts.add("uid=" + BackendProbeCache.currentUid());
    return Optional.of(sha256(String.join("\n", facts)));
  }

  private static void tools(List<String> facts, String... names) {
    for (String name : names) {
      for (String directory : SYSTEM_DIRECTORIES) {
        facts.add(file(Path.of(directory, name)));
      }
    }
  }

  private static String code(Class<?> provider) {
    CodeSource source = provider.getProtectionDomain().getCodeSource();
    if (source == null) {
      return "unknown";
    }
    try {
      return file(Path.of(source.getLocation().toURI()));
    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
      return source.getLocation().toString();
    }
  }

  /** A file's path, inode, size, change and modification times (following links), or that it is absent. */
  private static String file(Path path) {
    try {
      Map<String, Object> a = Files.readAttributes(path, "unix:ino,dev,uid,size,mode,ctime,lastModifiedTime");
      return path + " " + a.get("dev") + ":" + a.get("ino") + " uid " + a.get("uid") + " mode " + a.get("mode")
          + " size " + a.get("size") + " ctime " + a.get("ctime") + " mtime " + a.get("lastModifiedTime");
    } catch (IOException | UnsupportedOperationException e) {
      return path + " absent";
    }
  }

  /** A small file's content (a sysctl, a pid file), or that it is absent. */
  private static String content(Path path) {
    try {
      return path + "=" + Files.readString(path, StandardCharsets.UTF_8).strip();
    } catch (IOException | RuntimeException e) {
      return path + " absent";
    }
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
