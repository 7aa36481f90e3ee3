package dev.capability.backend.kubernetes;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The backend depends on kernel-api, the shared backend support and fabric8's client (with what it brings) only. */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.capability.backend.kubernetes");
  }

  @Test
  void dependsOnTheKernelApiTheBackendSupportAndFabric8Only() {
    classes()
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "org.jspecify.annotations..",
            "dev.capability.kernel.api..",
            "dev.capability.backend.support..",
            "dev.capability.backend.kubernetes..",
            "io.fabric8.kubernetes..",
            "org.apache.commons.compress..",
            "org.slf4j..")
        .check(classes);
  }

  @Test
  void onlyTheProviderIsPublicApi() {
    classes()
        .that()
        .resideInAPackage("dev.capability.backend.kubernetes")
        .and()
        .arePublic()
        .should()
        .haveSimpleName("KubernetesBackendProvider")
        .check(classes);
  }
}
