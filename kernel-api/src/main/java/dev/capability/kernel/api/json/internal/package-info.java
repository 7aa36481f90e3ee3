/**
 * Implementation of {@link dev.capability.kernel.api.json.CanonicalJson}: the value walk, string
 * escaping and ECMAScript number formatting; and the strict reader behind {@link
 * dev.capability.kernel.api.AttestationJson#fromJson(String)}. Not API; may change without notice.
 */
package dev.capability.kernel.api.json.internal;
