package dev.capability.kernel.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Deciding a command starts no process: the kernel core never starts one itself (every launch goes
 * through a backend), so reading git's configuration, hashing executables and checking a request
 * cannot run a program the policy did not allow, unattested and unbounded.
 */
class KernelLaunchesThroughBackendsOnlyTest {
  private static final JavaClasses CORE = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.capability.kernel.core");

  @Test
  void noKernelCoreClassStartsAProcess() {
    assertThat(CORE.stream().anyMatch(c -> c.getSimpleName().equals("GitConfigurationReader"))).as("the core's classes were imported").isTrue();

    noClasses().should().dependOnClassesThat().haveFullyQualifiedName(ProcessBuilder.class.getName())
        .orShould().callMethod(Runtime.class, "exec", String.class)
        .orShould().callMethod(Runtime.class, "exec", String[].class)
        .orShould().callMethod(Runtime.class, "exec", String[].class, String[].class, java.io.File.class)
        .orShould().callMethod(Runtime.class, "exec", String.class, String[].class, java.io.File.class)
        .because("the kernel core launches only through a backend, attested and bounded")
        .check(CORE);
  }
}
