/**
 * The generic HTTP invoker every imported OpenAPI operation runs. Its class file is copied into
 * each generated module jar together with that operation's binding; it depends on
 * {@code java.base}, {@code java.net.http} and the capability API only (its JSpecify annotations
 * are not needed at run time).
 */
@NullMarked
package dev.capability.openapi.invoker;

import org.jspecify.annotations.NullMarked;
