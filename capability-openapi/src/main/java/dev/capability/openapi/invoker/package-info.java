/**
 * The generic HTTP invoker every imported OpenAPI operation runs. Its class file is copied into
 * each generated module jar together with that operation's binding; it depends on
 * {@code java.base}, {@code java.net.http} and the capability API only.
 */
package dev.capability.openapi.invoker;
