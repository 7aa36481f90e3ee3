package dev.capability.integrations.langchain4j;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.capability.integrations.tools.internal.ToolSet;
import org.junit.jupiter.api.Test;

/** The integration depends on the SDK's public APIs only: no class reaches another module's internal package. */
class PublicApiOnlyTest {
  private static final String MODULE = "dev.capability.integrations.langchain4j";

  /** No class of {@code module} depends on a {@code dev.capability} package with an {@code internal} segment but its own. */
  static ArchRule noInternalsOfOtherModules(String module) {
    DescribedPredicate<JavaClass> foreignInternal = DescribedPredicate.describe(
        "are in an internal package of another dev.capability module",
        type -> type.getPackageName().startsWith("dev.capability.")
            && (type.getPackageName() + ".").contains(".internal.")
            && !(type.getPackageName() + ".").startsWith(module + "."));
    return noClasses().that().resideInAPackage(module + "..")
        .should().dependOnClassesThat(foreignInternal)
        .because("an integration is built on the public APIs only, as any embedder's code is");
  }

  @Test
  void theModuleUsesNoOtherModulesInternals() {
    noInternalsOfOtherModules(MODULE).check(new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(MODULE));
  }

  @Test
  void theRuleCatchesAClassReachingIntoTheAgentToolsInternals() {
    assertThat(noInternalsOfOtherModules(MODULE)
            .evaluate(new ClassFileImporter().importClasses(ReachesIntoTheAgentTools.class, ToolSet.class))
            .hasViolation())
        .isTrue();
  }

  /** Code of this module's package that reaches into the agent tools' implementation, for the rule to catch. */
  static final class ReachesIntoTheAgentTools {
    Class<?> tools() {
      return ToolSet.class;
    }
  }
}
