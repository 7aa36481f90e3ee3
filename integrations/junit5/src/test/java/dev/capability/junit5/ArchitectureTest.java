package dev.capability.junit5;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The extension is built on the SDK's public APIs only, as a third party's would be. */
class ArchitectureTest {
  private static final JavaClasses EXTENSION = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.capability.junit5");

  @Test
  void theExtensionUsesNoOtherModulesInternalPackages() {
    noClasses().that().resideInAPackage("dev.capability.junit5..")
        .should().dependOnClassesThat(
            com.tngtech.archunit.base.DescribedPredicate.describe("are in another module's internal package",
                (com.tngtech.archunit.core.domain.JavaClass c) -> c.getPackageName().startsWith("dev.capability.")
                    && c.getPackageName().matches(".*\\.internal(\\..*)?")
                    && !c.getPackageName().startsWith("dev.capability.junit5.")))
        .check(EXTENSION);
  }

  @Test
  void thePublicPackageReachesItsImplementationOnlyThroughTheExtension() {
    noClasses().that().resideInAPackage("dev.capability.junit5")
        .and().doNotHaveSimpleName("CapabilitySandboxExtension")
        .should().dependOnClassesThat().resideInAPackage("dev.capability.junit5.internal..")
        .check(EXTENSION);
  }
}
