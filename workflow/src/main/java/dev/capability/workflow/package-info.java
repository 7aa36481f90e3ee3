/**
 * Work plans, phases and their verified evidence ({@link dev.capability.workflow.WorkPlans}), the
 * assumptions and correction radius of a wrong assumption ({@link
 * dev.capability.workflow.Assumptions}), and the opt-in cross-project playbook ({@link
 * dev.capability.workflow.Playbook}). Everything is recorded through the store SPIs of {@code
 * dev.capability.kernel.api.store}.
 */
@NullMarked
package dev.capability.workflow;

import org.jspecify.annotations.NullMarked;
