package dev.capability.backend.docker;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The backend depends on kernel-api, the shared backend support and docker-java (with what it brings) only. */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.capability.backend.docker");
  }

  @Test
  void dependsOnTheKernelApiTheBackendSupportAndDockerJavaOnly() {
    classes()
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "org.jspecify.annotations..",
            "javax.net.ssl..",
            "dev.capability.kernel.api..",
            "dev.capability.backend.support..",
            "dev.capability.backend.docker..",
            "com.github.dockerjava..",
            "org.apache.commons.compress..",
            "org.slf4j..")
        .check(classes);
  }

  @Test
  void onlyTheProviderAndTheImageBuilderArePublicApi() {
    classes()
        .that()
        .resideInAPackage("dev.capability.backend.docker")
        .and()
        .arePublic()
        .should()
        .haveSimpleName("DockerBackendProvider")
        .orShould()
        .haveSimpleName("LocalRuntimeImage")
        .check(classes);
  }
}
