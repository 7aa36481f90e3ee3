package dev.capability.cli.internal;

import dev.capability.capability.runtime.CapabilityDescriptor;
import dev.capability.capability.runtime.CapabilityPackages;
import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.Hook;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code capability inspect}: what a package declares, read without loading any of its code. */
@Command(name = "inspect", description = "Inspect a capability package without loading its code.")
final class InspectCommand implements Callable<Integer> {
  private final Console console;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Parameters(paramLabel = "PKG", description = "The package: a directory, jar, zip or tgz.")
  Path pkg;

  InspectCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    CapabilityDescriptor descriptor = CapabilityPackages.open(pkg).descriptor();
    Map<String, Object> view = describe(descriptor);
    if (json) {
      console.json(view);
    } else {
      view.forEach((key, value) -> console.out().println(key + ": " + value));
    }
    return ExitCodes.OK;
  }

  static Map<String, Object> describe(CapabilityDescriptor descriptor) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("name", descriptor.name());
    view.put("version", descriptor.version());
    view.put("entry", descriptor.entry().module() + " " + descriptor.entry().className());
    view.put("modules", descriptor.moduleDigests());
    view.put("package", descriptor.packageDigest());
    view.put("effects", descriptor.effects().stream().map(Effect::toString).toList());
    view.put("hooks", descriptor.hooks().stream().map(Hook::id).sorted().toList());
    return view;
  }
}
