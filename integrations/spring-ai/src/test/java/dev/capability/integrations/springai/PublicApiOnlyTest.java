package dev.capability.integrations.springai;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.capability.integrations.springai.reaching.ReachingIntoAgentToolsInternals;
import org.junit.jupiter.api.Test;

/** The integration uses the other modules' public APIs only, as issue 22 asks of every integration. */
class PublicApiOnlyTest {
  private static final String MODULE = "dev.capability.integrations.springai";

  /** No class of this module depends on an {@code internal} package but its own. */
  private static final ArchRule PUBLIC_API_ONLY = noClasses()
      .that().resideInAPackage(MODULE + "..")
      .should().dependOnClassesThat(resideInAPackage("dev.capability..internal..").and(not(resideInAPackage(MODULE + ".internal.."))))
      .because("an integration builds on the public APIs of the kernel, the runtime and the agent tools");

  @Test
  void theModuleDependsOnNoOtherModulesInternals() {
    JavaClasses main = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(MODULE);
    assertThat(main).extracting(clazz -> clazz.getName())
        .contains(CapabilityAutoConfiguration.class.getName(), MODULE + ".internal.AgentToolCallback");

    PUBLIC_API_ONLY.check(main);
  }

  @Test
  void theRuleCatchesAClassThatReachesIntoAnotherModulesInternals() {
    JavaClasses reaching = new ClassFileImporter().importClasses(ReachingIntoAgentToolsInternals.class);

    EvaluationResult result = PUBLIC_API_ONLY.evaluate(reaching);

    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails()).anySatisfy(detail -> assertThat(detail).contains("ToolSet"));
  }
}
