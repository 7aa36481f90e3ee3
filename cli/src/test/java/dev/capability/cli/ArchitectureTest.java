package dev.capability.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The module arrows of ARCHITECTURE.md, checked on the compiled classes of every module. */
class ArchitectureTest {
  private static final List<String> MODULE_PACKAGES = List.of(
      "dev.capability.kernel.api",
      "dev.capability.kernel.core",
      "dev.capability.backend.process",
      "dev.capability.backend.bwrap",
      "dev.capability.linux",
      "dev.capability.ledger",
      "dev.capability.capability.api",
      "dev.capability.capability.runtime",
      "dev.capability.cli");

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.capability");
  }

  @Test
  void everyModuleWasImported() {
    for (String module : MODULE_PACKAGES) {
      org.assertj.core.api.Assertions.assertThat(classes.stream().anyMatch(c -> c.getPackageName().startsWith(module)))
          .as("classes of %s are on the test class path", module)
          .isTrue();
    }
  }

  @Test
  void kernelApiDependsOnTheJdkOnly() {
    classes().that().resideInAPackage("dev.capability.kernel.api..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "dev.capability.kernel.api..")
        .check(classes);
  }

  @Test
  void linuxNativeDependsOnTheJdkAndJnaOnly() {
    classes().that().resideInAPackage("dev.capability.linux..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "com.sun.jna..", "dev.capability.linux..")
        .because("the project's native surface stays one small module that knows nothing of the rest")
        .check(classes);
  }

  @Test
  void capabilityApiDependsOnTheJdkOnly() {
    classes().that().resideInAPackage("dev.capability.capability.api..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "dev.capability.capability.api..")
        .check(classes);
  }

  @Test
  void backendsNeverReachTheKernelRuntimeOrLedger() {
    noClasses().that().resideInAPackage("dev.capability.backend..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.capability.kernel.core..", "dev.capability.capability..", "dev.capability.ledger..", "dev.capability.cli..")
        .check(classes);
  }

  @Test
  void theKernelFindsBackendsOnlyThroughTheSpi() {
    noClasses().that().resideInAPackage("dev.capability.kernel..")
        .should().dependOnClassesThat().resideInAPackage("dev.capability.backend..")
        .check(classes);
  }

  @Test
  void onlyTheCliAndBenchmarksReachTheLedger() {
    noClasses().that().resideInAnyPackage("dev.capability.kernel..", "dev.capability.backend..", "dev.capability.capability..")
        .should().dependOnClassesThat().resideInAPackage("dev.capability.ledger..")
        .because("the ledger implements store SPIs of kernel-api; hosts wire it in")
        .check(classes);
  }

  @Test
  void theLedgerKnowsOnlyTheApi() {
    noClasses().that().resideInAPackage("dev.capability.ledger..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.capability.kernel.core..", "dev.capability.backend..", "dev.capability.cli..")
        .check(classes);
  }

  @Test
  void nobodyOutsideAModuleUsesItsInternalPackages() {
    for (String module : MODULE_PACKAGES) {
      noClasses().that().resideOutsideOfPackage(module + "..")
          .should().dependOnClassesThat().resideInAPackage(module + ".internal..")
          .because(module + ".internal is the implementation of its module, not API")
          .check(classes);
    }
  }

  @Test
  void pluginsAreFoundOnlyThroughTheOneLoader() {
    noClasses().that().resideOutsideOfPackage("dev.capability.kernel.api.plugin")
        .should().dependOnClassesThat().areAssignableTo(java.util.ServiceLoader.class)
        .because("Plugins keys every kind of provider by id and refuses duplicates naming both classes;"
            + " a ServiceLoader elsewhere would bypass that (docs/decisions.md, one plugin loader)")
        .check(classes);
  }
}
