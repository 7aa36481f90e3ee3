/** Executors: loading a package's module and running its lifecycle under granted effects. */
package dev.capability.capability.runtime.internal.exec;
