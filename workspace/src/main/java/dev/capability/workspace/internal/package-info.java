/** The tar writer, the strict tar reader, the checks of a returned archive and its application. Not API. */
@NullMarked
package dev.capability.workspace.internal;

import org.jspecify.annotations.NullMarked;
