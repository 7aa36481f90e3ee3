package dev.capability.integrations.agentsandbox;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The module is built on the kernel's public API only, as an embedder's code would be. */
class ArchitectureTest {
  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.capability.integrations.agentsandbox");

  @Test
  void theModuleReachesNoOtherModulesInternalPackages() {
    assertThat(CLASSES).extracting(c -> c.getSimpleName()).contains("KernelSandbox", "KernelExec", "WorkDirectoryFiles");

    noClasses()
        .should().dependOnClassesThat(resideInAPackage("dev.capability..internal..")
            .and(not(resideInAPackage("dev.capability.integrations.agentsandbox.internal.."))))
        .because("an integration uses the SDK as an application does, through its public API")
        .check(CLASSES);
  }

  @Test
  void thePublicApiReturnsNoInternalType() {
    methods().that().arePublic().and().areDeclaredInClassesThat().resideInAPackage("dev.capability.integrations.agentsandbox")
        .should().notHaveRawReturnType(resideInAPackage("..internal.."))
        .because("the internal package is KernelSandbox's implementation, never part of its API")
        .check(CLASSES);
  }
}
