package dev.capability.junit5.internal;

import dev.capability.junit5.SandboxCodes;
import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The text of a policy attribute: inline JSON when it starts with <code>{</code>, else a class-path resource. */
final class PolicyText {
  private PolicyText() {}

  static String read(String attribute, String name, ClassLoader loader) {
    String trimmed = attribute.strip();
    if (trimmed.startsWith("{")) {
      return trimmed;
    }
    if (trimmed.isEmpty()) {
      throw new CapabilityException(SandboxCodes.SANDBOX_POLICY_NOT_FOUND,
          "@CapabilitySandbox " + name + " is empty: give inline JSON or the name of a class-path resource");
    }
    String resource = trimmed.startsWith("/") ? trimmed.substring(1) : trimmed;
    try (InputStream in = loader.getResourceAsStream(resource)) {
      if (in == null) {
        throw new CapabilityException(SandboxCodes.SANDBOX_POLICY_NOT_FOUND,
            "@CapabilitySandbox " + name + " names the class-path resource '" + trimmed
                + "', which the test's class loader does not find (inline JSON must start with '{')");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the class-path resource " + trimmed, e);
    }
  }
}
