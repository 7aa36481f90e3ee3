/**
 * What the runtime shares with the modules built on it (acquisition, discovery, OpenAPI import):
 * strict parsing of untrusted JSON, printable quoting of untrusted text, the one redaction of
 * credentials in URLs, and the manifest rules a package writer must meet. Public so those modules
 * need no access to the runtime's {@code internal} packages; small, and not meant for capability
 * code.
 */
@NullMarked
package dev.capability.capability.runtime.support;

import org.jspecify.annotations.NullMarked;
