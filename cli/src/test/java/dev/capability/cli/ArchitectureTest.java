package dev.capability.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.capability.acquire.internal.AcquisitionPipeline;
import dev.capability.acquire.internal.ContentStore;
import dev.capability.kernel.api.json.internal.StrictJsonParser;
import dev.capability.acquire.sigstore.PluginReachingIntoAcquisition;
import dev.capability.cli.unmarked.OptionalParameters;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.policy.FlagRule;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.RecordComponent;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The module arrows of ARCHITECTURE.md, checked on the compiled classes of every module. */
class ArchitectureTest {
  private static final List<String> MODULE_PACKAGES = List.of(
      "dev.capability.kernel.api",
      "dev.capability.kernel.core",
      "dev.capability.workspace",
      "dev.capability.egress",
      "dev.capability.backend.process",
      "dev.capability.backend.bwrap",
      "dev.capability.backend.kubernetes",
      "dev.capability.linux",
      "dev.capability.ledger",
      "dev.capability.workflow",
      "dev.capability.evaluator",
      "dev.capability.capability.api",
      "dev.capability.capability.runtime",
      "dev.capability.acquire",
      "dev.capability.acquire.sigstore",
      "dev.capability.discovery",
      "dev.capability.openapi",
      "dev.capability.mcp",
      "dev.capability.junit5",
      "dev.capability.cli");

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        // Other modules' test classes reach this test as test jars once the reactor has packaged
        // them (a full verify), not as test-classes directories: they are tests too.
        .withImportOption(location -> !location.contains("-tests.jar"))
        // The shared test fixtures are test code kept in a module of their own, never published.
        .withImportOption(location -> !location.contains("test-fixtures"))
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
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "org.jspecify.annotations..", "dev.capability.kernel.api..")
        .check(classes);
  }

  @Test
  void linuxNativeDependsOnTheJdkAndJnaOnly() {
    classes().that().resideInAPackage("dev.capability.linux..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "org.jspecify.annotations..", "com.sun.jna..", "dev.capability.linux..")
        .because("the project's native surface stays one small module that knows nothing of the rest")
        .check(classes);
  }

  @Test
  void capabilityApiDependsOnTheJdkOnly() {
    classes().that().resideInAPackage("dev.capability.capability.api..")
        .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "org.jspecify.annotations..", "dev.capability.capability.api..")
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
            "dev.capability.discovery..", "dev.capability.openapi..", "dev.capability.workflow..", "dev.capability.mcp..",
            "dev.capability.evaluator..")
        .should().dependOnClassesThat().resideInAPackage("dev.capability.ledger..")
        .because("the ledger implements store SPIs of kernel-api; hosts wire it in")
        .check(classes);
  }

  @Test
  void theMcpServerKnowsOnlyPublicApisAndNeitherTheLedgerNorTheCli() {
    noClasses().that().resideInAPackage("dev.capability.mcp..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.capability.ledger..", "dev.capability.cli..", "dev.capability.backend..", "dev.capability.acquire..",
            "dev.capability.discovery..", "dev.capability.openapi..")
        .because("the CLI chooses the evidence store and hands it in (EvidenceAccess); the server serves the kernel and runtime APIs")
        .check(classes);
    noClasses().that().resideOutsideOfPackages("dev.capability.mcp..", "dev.capability.cli..", "dev.capability.bench..")
        .should().dependOnClassesThat().resideInAPackage("dev.capability.mcp..")
        .because("the MCP server is a host of the SDK, not part of it")
        .check(classes);
  }

  @Test
  void onlyTestsUseTheJUnitExtension() {
    noClasses().that().resideOutsideOfPackage("dev.capability.junit5..")
        .should().dependOnClassesThat().resideInAPackage("dev.capability.junit5..")
        .because("capability-junit5 is a test library: product code never depends on it, only tests (not imported here) do")
        .check(classes);
  }

  @Test
  void theEvaluatorKnowsTheKernelButNeitherTheLedgerNorItsHosts() {
    noClasses().that().resideInAPackage("dev.capability.evaluator..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.capability.ledger..", "dev.capability.cli..", "dev.capability.mcp..", "dev.capability.backend..",
            "dev.capability.workflow..", "dev.capability.capability..")
        .because("the evaluator runs commands through the CommandKernel and records through the EvaluationStore SPI; the host wires the ledger in")
        .check(classes);
    noClasses().that().resideOutsideOfPackages("dev.capability.evaluator..", "dev.capability.cli..", "dev.capability.bench..")
        .should().dependOnClassesThat().resideInAPackage("dev.capability.evaluator..")
        .because("the evaluator is a tool built on the kernel, not part of the kernel or the runtime")
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

  /**
   * The modules published with a module-info. capability-acquire-sigstore stays an automatic
   * module and the CLI an application on the class path (docs/decisions.md, "JPMS module
   * descriptors").
   */
  private static final List<String> NAMED_MODULES = List.of(
      "dev.capability.kernel.api",
      "dev.capability.kernel.core",
      "dev.capability.workspace",
      "dev.capability.egress",
      "dev.capability.capability.api",
      "dev.capability.capability.runtime",
      "dev.capability.acquire",
      "dev.capability.discovery",
      "dev.capability.openapi",
      "dev.capability.linux",
      "dev.capability.backend.support",
      "dev.capability.backend.process",
      "dev.capability.backend.bwrap",
      "dev.capability.backend.docker",
      "dev.capability.backend.kubernetes",
      "dev.capability.backend.tck",
      "dev.capability.ledger",
      "dev.capability.workflow",
      "dev.capability.junit5",
      "dev.capability.evaluator");

  @Test
  void everyPublishedModuleHasADescriptorThatExportsNoInternalPackage() throws IOException {
    Map<String, ModuleDescriptor> descriptors = projectModuleDescriptors();

    assertThat(descriptors.keySet()).containsExactlyInAnyOrderElementsOf(NAMED_MODULES);
    for (ModuleDescriptor descriptor : descriptors.values()) {
      assertThat(internalPackagesOpenedBy(descriptor)).as("internal packages %s exports or opens", descriptor.name()).isEmpty();
    }
  }

  @Test
  void theDescriptorRuleCatchesAnExportedOrOpenedInternalPackage() {
    ModuleDescriptor leaky = ModuleDescriptor.newModule("dev.capability.leaky")
        .exports("dev.capability.leaky")
        .exports("dev.capability.leaky.internal.store")
        .opens("dev.capability.leaky.internal")
        .build();

    assertThat(internalPackagesOpenedBy(leaky))
        .containsExactlyInAnyOrder("dev.capability.leaky.internal.store", "dev.capability.leaky.internal");
  }

  @Test
  void everyServicesFileOfANamedModuleIsAlsoItsProvides() throws IOException {
    Map<String, ModuleDescriptor> descriptors = projectModuleDescriptors();
    Map<String, String> moduleByLocation = new HashMap<>();
    for (URL url : Collections.list(ClassLoader.getSystemResources("module-info.class"))) {
      try (InputStream in = url.openStream()) {
        moduleByLocation.put(location(url), ModuleDescriptor.read(in).name());
      }
    }
    int checked = 0;
    for (String service : List.of(
        "dev.capability.kernel.api.backend.BackendProvider",
        "dev.capability.kernel.api.store.EvidenceStoreProvider",
        "dev.capability.kernel.api.network.EgressGateway",
        "dev.capability.capability.runtime.ExecutorProvider")) {
      for (URL file : Collections.list(ClassLoader.getSystemResources("META-INF/services/" + service))) {
        String module = moduleByLocation.get(location(file));
        if (module == null) {
          continue; // a test's services file, or a jar without a descriptor
        }
        Set<String> listed = new HashSet<>();
        try (InputStream in = file.openStream()) {
          new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
              .map(line -> line.replaceFirst("#.*", "").strip())
              .filter(line -> !line.isEmpty())
              .forEach(listed::add);
        }
        Set<String> provided = descriptors.get(module).provides().stream()
            .filter(provides -> provides.service().equals(service))
            .flatMap(provides -> provides.providers().stream())
            .collect(Collectors.toSet());
        assertThat(provided).as("%s provides %s as its services file lists", module, service).isEqualTo(listed);
        checked++;
      }
    }
    assertThat(checked).as("services files of named modules found").isGreaterThanOrEqualTo(5);
  }

  /** The packages {@code descriptor} exports or opens that have an {@code internal} segment. */
  private static List<String> internalPackagesOpenedBy(ModuleDescriptor descriptor) {
    return Stream.concat(
            descriptor.exports().stream().map(ModuleDescriptor.Exports::source),
            descriptor.opens().stream().map(ModuleDescriptor.Opens::source))
        .filter(pkg -> List.of(pkg.split("\\.")).contains("internal"))
        .toList();
  }

  /** The descriptors of the project's modules on the test class path, by module name. */
  private static Map<String, ModuleDescriptor> projectModuleDescriptors() throws IOException {
    Map<String, ModuleDescriptor> descriptors = new HashMap<>();
    for (URL url : Collections.list(ClassLoader.getSystemResources("module-info.class"))) {
      try (InputStream in = url.openStream()) {
        ModuleDescriptor descriptor = ModuleDescriptor.read(in);
        if (descriptor.name().startsWith("dev.capability.")) {
          assertThat(descriptors.put(descriptor.name(), descriptor)).as("%s found twice", descriptor.name()).isNull();
        }
      }
    }
    return descriptors;
  }

  /** The class path entry {@code resource} was found in: its URL up to the resource's own path. */
  private static String location(URL resource) {
    String url = resource.toString();
    int jarEntry = url.indexOf("!/");
    if (jarEntry >= 0) {
      return url.substring(0, jarEntry);
    }
    int services = url.lastIndexOf("/META-INF/services/");
    return url.substring(0, services >= 0 ? services : url.lastIndexOf('/'));
  }

  @Test
  void pluginsAreFoundOnlyThroughTheOneLoader() {
    noClasses().that().resideOutsideOfPackage("dev.capability.kernel.api.plugin")
        .should().dependOnClassesThat().areAssignableTo(java.util.ServiceLoader.class)
        .because("Plugins keys every kind of provider by id and refuses duplicates naming both classes;"
            + " a ServiceLoader elsewhere would bypass that (docs/decisions.md, one plugin loader)")
        .check(classes);
  }

  @Test
  void noPublicApiTakesAnOptionalParameter() {
    noOptionalParameters().check(classes);
  }

  @Test
  void theOptionalParameterRuleCatchesAMethodAndAHandWrittenConstructor() {
    assertThat(noOptionalParameters()
            .evaluate(new ClassFileImporter().importClasses(OptionalParameters.class, OptionalParameters.SecondaryConstructor.class))
            .getFailureReport().getDetails())
        .as("the static method and the secondary constructor, not the canonical constructors")
        .hasSize(2)
        .anyMatch(line -> line.contains("orDefault"))
        .anyMatch(line -> line.contains("SecondaryConstructor.<init>(java.util.Optional)"));
    assertThat(noOptionalParameters()
            .evaluate(new ClassFileImporter().importClasses(OptionalParameters.OptionalComponent.class, FlagRule.class))
            .hasViolation())
        .as("a record's canonical constructor takes its Optional components")
        .isFalse();
  }

  @Test
  void everyPublicPackageIsNullMarked() {
    nullMarkedPackages().check(classes);
  }

  @Test
  void theNullMarkedRuleCatchesAPackageWithoutTheAnnotation() {
    assertThat(nullMarkedPackages().evaluate(new ClassFileImporter().importClasses(OptionalParameters.class)).hasViolation())
        .isTrue();
    assertThat(nullMarkedPackages().evaluate(new ClassFileImporter().importClasses(ExecutionRequest.class)).hasViolation())
        .isFalse();
    assertThat(nullMarkedPackages().evaluate(new ClassFileImporter().importClasses(ContentStore.class)).hasViolation())
        .as("internal packages are not API and need no annotation")
        .isFalse();
  }

  /**
   * No public method or constructor of the public API takes an {@link Optional}: an absent argument
   * is {@code @Nullable} or an overload (docs/decisions.md, nullness). A record's canonical
   * constructor is exempt: its parameters are the components, and an accessor returning Optional is
   * the intended use.
   */
  private static ArchRule noOptionalParameters() {
    return codeUnits().that().areDeclaredInClassesThat(DescribedPredicate.describe("are public API", ArchitectureTest::isPublicApi))
        .and().arePublic()
        .should(new ArchCondition<JavaCodeUnit>("take no Optional parameter") {
          @Override
          public void check(JavaCodeUnit code, ConditionEvents events) {
            if (code.getModifiers().contains(JavaModifier.SYNTHETIC) || isCanonicalRecordConstructor(code)) {
              return;
            }
            boolean takesOptional = code.getRawParameterTypes().stream().anyMatch(type -> type.isEquivalentTo(Optional.class));
            events.add(new SimpleConditionEvent(code, !takesOptional, code.getFullName() + " takes an Optional parameter"));
          }
        })
        .because("callers pass a value or null (@Nullable) or use an overload; Optional is for return values")
        .allowEmptyShould(true);
  }

  /** Every class of a public (non-internal) package lies in a package annotated {@code @NullMarked}. */
  private static ArchRule nullMarkedPackages() {
    return classes().that(DescribedPredicate.describe("are in a public package", type -> !isInternal(type.getPackageName())))
        .should(new ArchCondition<JavaClass>("reside in a @NullMarked package") {
          @Override
          public void check(JavaClass type, ConditionEvents events) {
            boolean marked = type.reflect().getPackage().isAnnotationPresent(NullMarked.class);
            events.add(new SimpleConditionEvent(type, marked, type.getPackageName() + " has no @NullMarked package-info (" + type.getName() + ")"));
          }
        })
        .because("an unannotated type in the public API is non-null; @Nullable marks the exceptions")
        .allowEmptyShould(true);
  }

  private static boolean isCanonicalRecordConstructor(JavaCodeUnit code) {
    Class<?> owner = code.getOwner().reflect();
    if (!(code instanceof JavaConstructor) || !owner.isRecord()) {
      return false;
    }
    List<String> components = Arrays.stream(owner.getRecordComponents()).map(RecordComponent::getType).map(Class::getName).toList();
    return code.getRawParameterTypes().stream().map(JavaClass::getName).toList().equals(components);
  }

  /** Public, in a public package, and every class enclosing it public too. */
  private static boolean isPublicApi(JavaClass type) {
    if (isInternal(type.getPackageName())) {
      return false;
    }
    for (Optional<JavaClass> enclosing = Optional.of(type); enclosing.isPresent(); enclosing = enclosing.get().getEnclosingClass()) {
      if (!enclosing.get().getModifiers().contains(JavaModifier.PUBLIC)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isInternal(String packageName) {
    return (packageName + ".").contains(".internal.");
  }
}
