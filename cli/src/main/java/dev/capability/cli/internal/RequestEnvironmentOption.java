package dev.capability.cli.internal;

import dev.capability.kernel.api.ExecutionRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --env NAME=VALUE} of {@code exec} and {@code check}: variables for this run only. The
 * kernel decides them; only names the policy's {@code environment.request} lists are allowed.
 */
final class RequestEnvironmentOption {
  @Option(names = "--env", paramLabel = "NAME=VALUE",
      description = "Give the command this variable for this run (repeatable). The policy must list NAME in"
          + " environment.request; the value is never recorded, the name is.")
  Map<String, String> variables = new LinkedHashMap<>();

  /**
   * Adds the variables to {@code request}.
   *
   * @throws dev.capability.kernel.api.CapabilityException {@code INPUT_NOT_UTF8} when a variable
   *     came from command-line bytes that are not UTF-8
   */
  void addTo(Console console, ExecutionRequest.Builder request) {
    variables.forEach((name, value) -> {
      // Spelled "--env NAME=VALUE" or "--env=NAME=VALUE" on the command line.
      console.requireUtf8Argument(name + "=" + value, "--env " + name);
      console.requireUtf8Argument("--env=" + name + "=" + value, "--env " + name);
      request.environment(name, value);
    });
  }
}
