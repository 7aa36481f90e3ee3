/**
 * Work plans, assumptions and the playbook over the kernel: every command they accept is decided,
 * and every verification run, by a {@code CommandKernel} the host gives them; everything they keep
 * goes through the store SPIs of kernel-api. Only {@code dev.capability.workflow} is exported.
 */
// zjsonpatch names no module: its name comes from the jar's file name (see docs/decisions.md,
// "Module names: re2j and sigstore-java", which this follows).
@SuppressWarnings("requires-automatic")
module dev.capability.workflow {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires transitive dev.capability.kernel.core;
  requires com.fasterxml.jackson.databind;
  requires zjsonpatch;

  exports dev.capability.workflow;
}
