package dev.capability.openapi;

import dev.capability.openapi.internal.ImportedDocuments;
import dev.capability.openapi.internal.OpenApiReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Imports OpenAPI 3.0 and 3.1 documents in JSON (YAML is not read: convert it first, with a tool
 * you trust). See {@code docs/openapi.md} for what is validated and what the import yields.
 */
public final class OpenApiImport {
  private OpenApiImport() {}

  /**
   * One description per operation, in document order (paths, then methods in the order get,
   * put, post, delete, options, head, patch, trace).
   *
   * @throws OpenApiRefusedException naming the member at fault
   */
  public static List<ImportedOperation> read(byte[] document, ImportOptions options) {
    Objects.requireNonNull(document, "document");
    Objects.requireNonNull(options, "options");
    return new OpenApiReader(options).read(document);
  }

  /**
   * Writes the package {@code <directory>/<name>/} for each operation: {@code capability.json},
   * the module {@code lib/http-operation.jar} (the invoker and the operation's binding) and
   * {@code operation.json} (the binding, for review). The directory must not exist or be empty;
   * it is created.
   *
   * @return the directories written, one per operation
   * @throws OpenApiRefusedException {@link OpenApiCodes#OPENAPI_OUTPUT_INVALID}
   */
  public static List<Path> write(List<ImportedOperation> operations, Path directory) {
    Objects.requireNonNull(directory, "directory");
    return ImportedDocuments.write(List.copyOf(operations), directory);
  }
}
