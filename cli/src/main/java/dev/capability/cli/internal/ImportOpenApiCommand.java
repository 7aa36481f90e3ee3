package dev.capability.cli.internal;

import dev.capability.openapi.ImportOptions;
import dev.capability.openapi.ImportedOperation;
import dev.capability.openapi.OpenApiCodes;
import dev.capability.openapi.OpenApiImport;
import dev.capability.openapi.OpenApiLimits;
import dev.capability.openapi.OpenApiRefusedException;
import dev.capability.kernel.api.CapabilityException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code capability import-openapi}: one runnable capability package per OpenAPI operation. */
@Command(name = "import-openapi",
    description = "Turn an OpenAPI 3.0/3.1 JSON document into capability packages, one per operation.")
final class ImportOpenApiCommand implements Callable<Integer> {
  private final Console console;

  @Parameters(paramLabel = "FILE", description = "The OpenAPI document (JSON).")
  Path file;

  @Option(names = "--out", paramLabel = "DIR", description = "Write the package DIR/<name>/ (capability.json, lib/http-operation.jar, operation.json); DIR must not exist or be empty.")
  Path out;

  @Option(names = "--server", paramLabel = "URL", description = "The server to use when the document lists several (after variable defaults).")
  String server;

  @Option(names = "--capability-version", paramLabel = "SEMVER", description = "The version to give the capabilities when info.version is not semantic.")
  String version;

  @Mixin NetworkAccessOptions network = new NetworkAccessOptions();

  @Option(names = "--max-operations", paramLabel = "N", description = "Most operations imported (default: ${DEFAULT-VALUE}).")
  int maxOperations = OpenApiLimits.defaults().maxOperations();

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  ImportOpenApiCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    if (maxOperations < 1) {
      throw new CapabilityException(CliCodes.USAGE, "--max-operations must be at least 1");
    }
    ImportOptions options = new ImportOptions(
        network.access(),
        OpenApiLimits.defaults().withMaxOperations(maxOperations),
        Optional.ofNullable(server),
        Optional.ofNullable(version));
    List<ImportedOperation> operations = OpenApiImport.read(readBounded(file, options.limits().maxBytes()), options);
    List<Path> written = out == null ? List.of() : OpenApiImport.write(operations, out);
    List<Map<String, Object>> view = new ArrayList<>();
    for (int i = 0; i < operations.size(); i++) {
      ImportedOperation operation = operations.get(i);
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("name", operation.name());
      item.put("version", operation.version());
      item.put("method", operation.method());
      item.put("path", operation.path());
      item.put("server", operation.server().toString());
      item.put("effects", List.of(operation.connect().toString()));
      item.put("directory", written.isEmpty() ? null : written.get(i).toString());
      view.add(item);
    }
    if (json) {
      console.json(Map.of("operations", view));
    } else {
      for (Map<String, Object> item : view) {
        console.out().println(item.get("name") + "  " + item.get("method") + " " + item.get("path") + "  " + item.get("effects")
            + (item.get("directory") == null ? "" : "  -> " + item.get("directory")));
      }
    }
    return ExitCodes.OK;
  }

  private static byte[] readBounded(Path file, int maxBytes) {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readNBytes(maxBytes + 1);
      if (bytes.length > maxBytes) {
        throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_TOO_LARGE, file + " is larger than " + maxBytes + " bytes");
      }
      return bytes;
    } catch (IOException e) {
      throw new OpenApiRefusedException(OpenApiCodes.OPENAPI_INVALID, "cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
