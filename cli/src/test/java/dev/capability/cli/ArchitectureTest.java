package dev.capability.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.capability.acquire.internal.AcquisitionPipeline;
import dev.capability.acquire.internal.ContentStore;
import dev.capability.kernel.api.json.internal.StrictJsonParser;
import dev.capability.acquire.sigstore.PluginReachingIntoAcquisition;
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
      "dev.capability.workflow",
      "dev.capability.capability.api",
      "dev.capability.capability.runtime",
      "dev.capability.acquire",
      "dev.capability.acquire.sigstore",
      "dev.capability.discovery",
      "dev.capability.openapi",
      "dev.capability.cli");

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        // Other modules' test classes reach this test as test jars once the reactor has packaged
        // them (a full verify), not as test-classes directories: they are tests too.
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages("dev.capability");
  }

  @Test
  void everyModuleWasImported() {
    for (String module : MODULE_PACKAGES) {
      assertThat(classes.stream().anyMatch(c -> c.getPackageName().startsWith(module)))
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
            "dev.capability.kernel.core..", "dev.capability.capability..", "dev.capability.acquire..", "dev.capability.discovery..",
            "dev.capability.openapi..", "dev.capability.ledger..", "dev.capability.cli..")
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
    noClasses().that().resideInAnyPackage(
            "dev.capability.kernel..", "dev.capability.backend..", "dev.capability.capability..", "dev.capability.acquire..",
            "dev.capability.discovery..", "dev.capability.openapi..")
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
  void theRuntimeKnowsNoneOfTheModulesBuiltOnIt() {
    noClasses().that().resideInAPackage("dev.capability.capability.runtime..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.capability.acquire..", "dev.capability.discovery..", "dev.capability.openapi..", "dev.capability.cli..")
        .because("capability-runtime is inspect, plan, decide, execute, verify and receipt; acquisition, discovery and OpenAPI import build on it")
        .check(classes);
  }

  @Test
  void acquisitionReachesSigstoreOnlyThroughItsSpi() {
    noClasses().that().resideInAPackage("dev.capability.acquire..").and().resideOutsideOfPackage("dev.capability.acquire.sigstore..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.capability.acquire.sigstore..", "dev.sigstore..", "io.grpc..", "com.google.protobuf..")
        .because("an embedder who verifies no Sigstore bundles must not inherit sigstore-java; the plug-in is found through ServiceLoader")
        .check(classes);
  }

  @Test
  void theCapabilityModulesDependOnlyDownwards() {
    noClasses().that().resideInAPackage("dev.capability.acquire..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.capability.discovery..", "dev.capability.openapi..", "dev.capability.cli..")
        .check(classes);
    noClasses().that().resideInAPackage("dev.capability.discovery..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.capability.openapi..", "dev.capability.acquire.sigstore..", "dev.capability.cli..")
        .check(classes);
    noClasses().that().resideInAPackage("dev.capability.openapi..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.capability.acquire..", "dev.capability.cli..")
        .check(classes);
  }

  @Test
  void nobodyOutsideAModuleUsesItsInternalPackages() {
    for (ArchRule rule : internalPackageRules()) {
      rule.check(classes);
    }
  }

  @Test
  void theInternalPackageRuleCatchesAnotherModuleReachingIn() {
    JavaClasses offending = new ClassFileImporter().importClasses(ReachesIntoAcquisition.class, ContentStore.class);
    assertThat(internalPackageRules().stream().anyMatch(rule -> rule.evaluate(offending).hasViolation())).isTrue();
    JavaClasses fromThePlugin = new ClassFileImporter().importClasses(PluginReachingIntoAcquisition.class, ContentStore.class);
    assertThat(internalPackageRules().stream().anyMatch(rule -> rule.evaluate(fromThePlugin).hasViolation()))
        .as("the Sigstore plug-in lives under dev.capability.acquire but is another module")
        .isTrue();
    JavaClasses within = new ClassFileImporter().importClasses(AcquisitionPipeline.class, ContentStore.class);
    assertThat(internalPackageRules().stream().anyMatch(rule -> rule.evaluate(within).hasViolation())).isFalse();
    JavaClasses deep = new ClassFileImporter().importClasses(ReachesIntoJsonInternals.class, StrictJsonParser.class);
    assertThat(internalPackageRules().stream().anyMatch(rule -> rule.evaluate(deep).hasViolation()))
        .as("an internal package below a module's public one (kernel.api.json.internal) is closed too")
        .isTrue();
  }

  /** Code of another module that reaches into kernel-api's JSON implementation, for the rule to catch. */
  static final class ReachesIntoJsonInternals {
    Class<?> parser() {
      return StrictJsonParser.class;
    }
  }

  /**
   * One rule per module: no class of another module depends on its {@code internal} packages, at
   * any depth ({@code kernel.api.json.internal} as much as {@code kernel.core.internal}). A
   * module whose package lies under another's ({@code dev.capability.acquire.sigstore} under
   * {@code dev.capability.acquire}) counts as another module.
   */
  private static List<ArchRule> internalPackageRules() {
    return MODULE_PACKAGES.stream()
        .map(module -> {
          List<String> nested = MODULE_PACKAGES.stream().filter(other -> other.startsWith(module + ".")).toList();
          DescribedPredicate<JavaClass> outside = DescribedPredicate.describe(
              "are outside " + module,
              type -> !inPackage(type.getPackageName(), module) || nested.stream().anyMatch(n -> inPackage(type.getPackageName(), n)));
          DescribedPredicate<JavaClass> internal = DescribedPredicate.describe(
              "are in an internal package of " + module,
              type -> inPackage(type.getPackageName(), module)
                  && nested.stream().noneMatch(n -> inPackage(type.getPackageName(), n))
                  && (type.getPackageName() + ".").contains(".internal."));
          return noClasses().that(outside)
              .should().dependOnClassesThat(internal)
              .because(module + ".internal is the implementation of its module, not API")
              .allowEmptyShould(true);
        })
        .toList();
  }

  private static boolean inPackage(String name, String root) {
    return name.equals(root) || name.startsWith(root + ".");
  }

  /** Test code of another module that reaches into acquisition's implementation, for the rule to catch. */
  static final class ReachesIntoAcquisition {
    Class<?> store() {
      return ContentStore.class;
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
