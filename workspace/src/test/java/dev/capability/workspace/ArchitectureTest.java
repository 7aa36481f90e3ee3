package dev.capability.workspace;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The workspace depends on the JDK and kernel-api only, so that kernel-core can take it without a tar library. */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.capability.workspace");
  }

  @Test
  void dependsOnTheJdkAndTheKernelApiOnly() {
    classes().should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "org.jspecify.annotations..", "dev.capability.kernel.api..", "dev.capability.workspace..")
        .check(classes);
  }

  @Test
  void thePublicApiIsTheFactoryItsValuesAndItsCodes() {
    classes().that().resideInAPackage("dev.capability.workspace").and().arePublic().and().areTopLevelClasses()
        .should().haveSimpleNameStartingWith("RepositoryWorkspace")
        .orShould().haveSimpleNameStartingWith("Workspace")
        .orShould().haveSimpleName("FileFingerprint")
        .check(classes);
  }
}
