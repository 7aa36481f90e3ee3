/** Implementation of OpenAPI import: servers, names, reference resolution, schema conversion, output. */
package dev.capability.openapi.internal;
