package dev.capability.openapi;

import dev.capability.capability.runtime.Effect;
import dev.capability.openapi.internal.ImportedDocuments;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One imported operation: the description of a capability that performs it. {@link OpenApiImport#write} turns
 * it into a complete package whose module runs the generic
 * {@link dev.capability.openapi.invoker.HttpOperationInvoker} with this
 * operation's binding.
 *
 * @param name the capability name (from {@code operationId}, or the method and path)
 * @param version the capability version
 * @param description the operation's summary or description, possibly empty
 * @param method the HTTP method, upper case
 * @param path the path template, for example {@code /pets/{petId}}
 * @param server the validated server URL the operation is called on
 * @param connect the one effect declared: {@code network.connect} to the server's host and port
 * @param inputSchemaJson a self-contained JSON Schema (draft 2020-12) of the input: an object
 *     with {@code path}, {@code query}, {@code header}, {@code cookie} and {@code body} members
 * @param outputSchemaJson a self-contained JSON Schema of a successful JSON response, or {@code true};
 *     the capability's own output is {@code {"status", "body"}} with the body as text, and this
 *     schema is recorded in {@code operation.json} as {@code response}
 * @param requestMediaType the media type the request body is sent as, empty when the operation
 *     takes no body
 */
public record ImportedOperation(
    String name,
    String version,
    String description,
    String method,
    String path,
    URI server,
    Effect connect,
    String inputSchemaJson,
    String outputSchemaJson,
    Optional<String> requestMediaType) {
  private static final Pattern NAME = Pattern.compile("[a-z0-9](?:[a-z0-9-]|\\.(?!\\.)){0,98}[a-z0-9]|[a-z0-9]");

  public ImportedOperation {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(connect, "connect");
    Objects.requireNonNull(inputSchemaJson, "inputSchemaJson");
    Objects.requireNonNull(outputSchemaJson, "outputSchemaJson");
    Objects.requireNonNull(requestMediaType, "requestMediaType");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("name must be a capability name, was '" + name + "'");
    }
  }

  /** The {@code capability.json} of this operation, with its module's {@code entry} and sha512 integrity. */
  public String manifestJson() {
    return ImportedDocuments.manifest(this);
  }

  /** The HTTP binding for review: method, server, path template, parameters, body media type, response schema. */
  public String operationJson() {
    return ImportedDocuments.operation(this);
  }
}
