package dev.capability.backend.tck;

/**
 * The whole backend contract suite. A backend's test extends this class and supplies its backend:
 *
 * <pre>{@code
 * class MyBackendContractTest extends ExecutionBackendContract {
 *   private static final ExecutionBackend BACKEND =
 *       new MyBackendProvider().create(BackendConfig.defaults());
 *
 *   @Override
 *   public ExecutionBackend backend() {
 *     return BACKEND;
 *   }
 *
 *   @AfterAll
 *   static void close() {
 *     BACKEND.close();
 *   }
 * }
 * }</pre>
 *
 * The test then runs {@link BaselineContract}, {@link TerminationContract}, {@link
 * IsolationContract} and {@link ResourceContract}. A test class may instead implement only some of
 * those interfaces. The other hooks of {@link BackendUnderTest} have defaults for backends whose
 * commands run as processes of this machine.
 */
public abstract class ExecutionBackendContract
    implements BaselineContract, TerminationContract, IsolationContract, ResourceContract {

  /** For subclasses. */
  protected ExecutionBackendContract() {}
}
