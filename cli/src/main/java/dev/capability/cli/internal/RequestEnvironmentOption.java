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

  /** Adds the variables to {@code request}. */
  void addTo(ExecutionRequest.Builder request) {
    variables.forEach(request::environment);
  }
}
