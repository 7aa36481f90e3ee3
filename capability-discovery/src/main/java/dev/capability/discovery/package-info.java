/**
 * Discovery: reading public capability index documents and searching them. Everything an index
 * says is untrusted metadata; nothing here fetches a package, runs code or grants anything.
 *
 * <p>Start with {@link dev.capability.discovery.IndexFederation#traverse} and
 * {@link dev.capability.discovery.IndexSearch#search}.
 */
@NullMarked
package dev.capability.discovery;

import org.jspecify.annotations.NullMarked;
