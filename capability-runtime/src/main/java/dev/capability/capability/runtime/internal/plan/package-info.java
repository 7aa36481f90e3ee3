/** Plan building blocks. */
package dev.capability.capability.runtime.internal.plan;
