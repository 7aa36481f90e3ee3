package dev.capability.cli.internal;

import dev.capability.backend.docker.LocalRuntimeImage;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code capability image}: builds the Docker backend's runtime image locally, without a registry. */
@Command(
    name = "image",
    description =
        "Build (or confirm) the Docker backend's runtime image from this host's gcc, busybox-static, tini and a jlink"
            + " runtime of this JDK, without any registry.")
final class ImageCommand implements Callable<Integer> {
  private final Console console;

  @Option(names = "--tag", paramLabel = "TAG", description = "The tag to build (default: the backend's default image).")
  String tag = LocalRuntimeImage.defaultTag();

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  ImageCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    String id = LocalRuntimeImage.ensure(tag, console.progress(json));
    if (json) {
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("tag", tag);
      view.put("id", id);
      console.json(view);
    } else {
      console.out().println(tag + " " + id);
    }
    return ExitCodes.OK;
  }
}
