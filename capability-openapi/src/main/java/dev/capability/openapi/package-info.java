/**
 * OpenAPI import: an OpenAPI 3.0 or 3.1 JSON document becomes one capability package per
 * operation, each declaring {@code network.connect} to the document's server and running the
 * generic {@link dev.capability.openapi.invoker.HttpOperationInvoker}. The document is
 * untrusted: sizes, names, servers and references are validated and nothing is fetched.
 *
 * <p>Start with {@link dev.capability.openapi.OpenApiImport#read}.
 */
@NullMarked
package dev.capability.openapi;

import org.jspecify.annotations.NullMarked;
