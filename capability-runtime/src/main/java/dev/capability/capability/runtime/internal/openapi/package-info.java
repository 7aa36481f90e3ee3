/** Implementation of OpenAPI import: servers, names, reference resolution, schema conversion, output. */
package dev.capability.capability.runtime.internal.openapi;
