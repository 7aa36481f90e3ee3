package dev.capability.cli.internal;

import dev.capability.kernel.core.CommandKernel;
import picocli.CommandLine;

/** {@code capability --version}. */
final class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"capability " + CommandKernel.version()};
  }
}
