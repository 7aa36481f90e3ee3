/**
 * The evidence store SPIs and the records they keep: decisions, executions, acquisitions, receipts
 * and work plans.
 */
@NullMarked
package dev.capability.kernel.api.store;

import org.jspecify.annotations.NullMarked;
