/**
 * The command kernel: {@link dev.capability.kernel.core.CommandKernel} and policy loading. Every
 * {@code internal} package stays closed; backends are found with {@link java.util.ServiceLoader}.
 */
// JGit is an automatic module, named by its Automatic-Module-Name (org.eclipse.jgit).
@SuppressWarnings("requires-automatic")
module dev.capability.kernel.core {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires dev.capability.workspace;
  requires com.fasterxml.jackson.databind;
  requires org.eclipse.jgit;
  requires dev.capability.linux;

  exports dev.capability.kernel.core;

  uses dev.capability.kernel.api.backend.BackendProvider;
  uses dev.capability.kernel.api.network.EgressGateway;
}
