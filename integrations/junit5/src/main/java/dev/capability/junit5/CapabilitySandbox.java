package dev.capability.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs each test of the annotated class, or the annotated test, with a sandbox of its own: a new
 * Git repository (real {@code git init} and an initial commit), the operator policy {@link
 * #policy} installed as a private policy file outside that repository and loaded with every
 * policy-file check, a {@link dev.capability.kernel.core.CommandKernel} on the backend {@link
 * #backend}, and a SQLite ledger of its own in which every execution is recorded. A test declares
 * what it uses as parameters: {@code CommandKernel}, {@code CapabilityRuntime}, {@code Path}
 * marked {@link SandboxRepository}, {@code LedgerReader}.
 *
 * <p>After the test ran, it fails when any execution through its kernel or runtime changed a
 * path its write scope does not allow (an attestation {@linkplain
 * dev.capability.kernel.api.Attestation#violations() violation} that is not an egress refusal);
 * the failure's message holds each such attestation as JSON. A method's annotation replaces its
 * class's. A backend that cannot run on this machine skips the test with the backend's reason,
 * or fails it when backends are required (see {@link #REQUIRE_BACKENDS_PARAMETER}).
 *
 * <pre>{@code
 * @CapabilitySandbox(policy = "policies/git-status.json")
 * class GitStatusTest {
 *   @Test
 *   void statusRunsAndLogIsRefused(CommandKernel kernel, @SandboxRepository Path repository) {
 *     assertThat(kernel.execute(ExecutionRequest.argv("git", "status").repository(repository).build())).exitedWith(0);
 *     assertThat(kernel.execute(ExecutionRequest.argv("git", "log").repository(repository).build()))
 *         .wasDenied().byLayer("operator");
 *   }
 * }
 * }</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(CapabilitySandboxExtension.class)
public @interface CapabilitySandbox {
  /**
   * The JUnit configuration parameter ({@code junit-platform.properties}, or {@code -D} for the
   * test JVM) that says whether an unavailable backend fails a test ({@code true}) or skips it
   * ({@code false}). Without it, the environment variable {@value #REQUIRE_BACKENDS_VARIABLE}
   * decides: {@code 1} fails, anything else skips.
   */
  String REQUIRE_BACKENDS_PARAMETER = "capability.requireBackends";

  /** The environment variable that makes an unavailable backend fail a test instead of skipping it, when it is {@code 1}. */
  String REQUIRE_BACKENDS_VARIABLE = "CAPABILITY_REQUIRE_BACKENDS";

  /**
   * The operator policy ({@code docs/policy.md}): inline JSON when it starts with <code>{</code>
   * (after white space), otherwise the name of a class-path resource, looked up with the test
   * class's class loader (for example {@code policies/git.json} in {@code src/test/resources}).
   */
  String policy();

  /** The id of the backend every command runs on: {@code bwrap} (the default), {@code docker}, {@code process}, or another installed backend's id. */
  String backend() default "bwrap";

  /**
   * The effect policy of the injected {@link dev.capability.capability.runtime.CapabilityRuntime}
   * (inline JSON or a class-path resource, as {@link #policy}); empty, the default, denies every
   * effect.
   */
  String capabilityPolicy() default "";

  /**
   * Whether the test fails after it ran when an execution violated its write scope; {@code true}
   * by default. A test that provokes a violation on purpose, and asserts it, says {@code false}.
   */
  boolean failOnWriteViolations() default true;
}
