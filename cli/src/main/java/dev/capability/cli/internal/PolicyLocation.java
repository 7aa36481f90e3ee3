package dev.capability.cli.internal;

import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.PolicyCodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the operator policy is: {@code --policy FILE}, else {@value KernelOptions#POLICY_ENV}, else the
 * file {@code capability policy init} writes, {@code ${XDG_CONFIG_HOME:-$HOME/.config}/capability/policy.json},
 * when it exists.
 *
 * @param file the policy file (a relative one from the environment is passed on, for the kernel's reader to refuse)
 * @param origin how it was found: {@code option}, {@code environment} or {@code default}
 */
record PolicyLocation(Path file, String origin) {
  static final String OPTION = "option";
  static final String ENVIRONMENT = "environment";
  static final String DEFAULT = "default";

  PolicyLocation {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(origin, "origin");
  }

  /** The policy the kernel commands use, by the rule above. */
  static PolicyLocation resolve(Optional<Path> option, Map<String, String> environment) {
    if (option.isPresent()) {
      return new PolicyLocation(option.get().toAbsolutePath(), OPTION);
    }
    String variable = environment.get(KernelOptions.POLICY_ENV);
    if (variable != null && !variable.isEmpty()) {
      try {
        // As given: the kernel's reader refuses a relative path by name.
        return new PolicyLocation(Path.of(variable), ENVIRONMENT);
      } catch (InvalidPathException e) {
        throw new PolicyException(PolicyCodes.POLICY_PATH_NOT_ABSOLUTE, KernelOptions.POLICY_ENV + " is not a path: " + e.getReason());
      }
    }
    Path file = canonicalDirectory(defaultFile(environment));
    if (!Files.exists(file)) {
      throw new PolicyException(PolicyCodes.POLICY_PATH_UNSET, "no policy: pass --policy FILE, set " + KernelOptions.POLICY_ENV
          + ", or run 'capability policy init' to write one to " + file + "; the kernel never runs without an operator policy");
    }
    return new PolicyLocation(file, DEFAULT);
  }

  /** {@code ${XDG_CONFIG_HOME:-$HOME/.config}/capability/policy.json}; a relative XDG_CONFIG_HOME is ignored, as the XDG spec says. */
  static Path defaultFile(Map<String, String> environment) {
    String xdg = environment.get("XDG_CONFIG_HOME");
    Path config;
    if (xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()) {
      config = Path.of(xdg);
    } else {
      String home = environment.get("HOME");
      if (home == null || home.isEmpty() || !Path.of(home).isAbsolute()) {
        throw new PolicyException(PolicyCodes.POLICY_PATH_UNSET,
            "neither XDG_CONFIG_HOME nor HOME is an absolute path, so there is no default policy location; pass --policy FILE");
      }
      config = Path.of(home, ".config");
    }
    return config.resolve("capability").resolve("policy.json").normalize();
  }

  /**
   * The file in the real path of its directory, when that exists: a home directory reached through
   * a symbolic link is the operator's own choice, and the kernel's reader takes only canonical paths.
   */
  static Path canonicalDirectory(Path file) {
    try {
      return file.getParent().toRealPath().resolve(file.getFileName());
    } catch (IOException e) {
      return file;
    }
  }
}
