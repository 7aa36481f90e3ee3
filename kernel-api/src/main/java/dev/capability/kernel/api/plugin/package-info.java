/**
 * How every kind of plugin is found: {@link dev.capability.kernel.api.plugin.Plugins} loads the
 * providers of one service with {@link java.util.ServiceLoader} and keys them by id, so that two
 * providers claiming one id fail the same way for backends, executors and evidence stores.
 */
@NullMarked
package dev.capability.kernel.api.plugin;

import org.jspecify.annotations.NullMarked;
