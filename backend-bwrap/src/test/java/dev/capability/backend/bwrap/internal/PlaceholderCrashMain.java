package dev.capability.backend.bwrap.internal;

import dev.capability.kernel.api.backend.BackendConfig;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Run by {@link PlaceholderCrashTest} in a child JVM that the test kills with SIGKILL: launches a
 * sandbox that masks the absent protected paths it is given and never ends. Takes the work
 * directory, the repository, the writable root, a directory for the script and the protected
 * paths.
 */
public final class PlaceholderCrashMain {
  private PlaceholderCrashMain() {}

  public static void main(String[] args) {
    Path workDirectory = Path.of(args[0]);
    Path repo = Path.of(args[1]);
    Path writable = Path.of(args[2]);
    Path bin = Path.of(args[3]);
    List<Path> protectedPaths = Arrays.stream(args).skip(4).map(Path::of).toList();
    try (BwrapBackend backend =
        BwrapBackend.create(
            new BackendConfig(Map.of(BwrapSettings.WORK_DIR, workDirectory.toString())))) {
      backend.launch(
          Sandboxes.spec(
                  Sandboxes.script(bin, "touch " + writable + "/started\nexec sleep 1000"), repo)
              .writableRoots(List.of(writable))
              .protectedPaths(protectedPaths)
              .timeout(java.time.Duration.ofMinutes(5))
              .build());
    }
  }
}
