package dev.capability.capability.runtime.internal.scan;

import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.EffectFinding;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds references to effect-causing APIs in a class file's constant pool: class constants
 * (including super types), field and method references (including those behind method handles),
 * members a package class inherits from a JDK class (matched as that class's members), bootstrap
 * methods other than javac's, and string constants naming such a class, the simplest form of
 * reflection.
 */
public final class EffectScanner {
  private EffectScanner() {}

  /**
   * Every reference in the class {@code refs} to an API whose effect {@code declared} does not
   * cover.
   *
   * @param hierarchy the supertypes of every class of the package {@code refs} belongs to
   * @param declared the effects the manifest declares: a kind covers its APIs whatever the scope,
   *     except {@code code.dynamic}, whose scope must name the mechanism used
   */
  public static List<EffectFinding> undeclared(
      ClassFileReader.References refs, ClassHierarchy hierarchy, Collection<Effect> declared) {
    Set<String> covered = new HashSet<>();
    for (Effect effect : declared) {
      covered.add(effect.kind().id());
      covered.add(effect.toString());
    }
    List<EffectFinding> findings = new ArrayList<>();
    String self = refs.thisClass();
    for (String type : refs.classes()) {
      String element = type.replaceFirst("^\\[+L?", "").replaceFirst(";$", "");
      add(findings, self, element, EffectRules.forClass(element), covered);
    }
    for (ClassFileReader.MemberRef ref : refs.members()) {
      String written = ref.owner() + "." + ref.name();
      add(findings, self, written, EffectRules.forClass(ref.owner()), covered);
      for (String external : hierarchy.externalOwners(ref)) {
        for (String type : hierarchy.withJdkSupertypes(external)) {
          boolean asWritten = type.equals(ref.owner());
          String member = asWritten ? written : written + ", inherited from " + type;
          add(findings, self, member, EffectRules.forMember(type, ref.name(), ref.descriptor(), asWritten || type.equals(external)), covered);
        }
      }
    }
    for (ClassFileReader.MemberRef bootstrap : refs.bootstraps()) {
      if (!EffectRules.isStandardBootstrap(bootstrap)) {
        add(findings, self, "bootstrap method " + bootstrap.owner() + "." + bootstrap.name(), Set.of(EffectRules.METHOD_HANDLES), covered);
      }
    }
    for (String text : refs.strings()) {
      String internal = text.replace('.', '/');
      if (internal.length() < 200) {
        add(findings, self, "\"" + text + "\"", EffectRules.forClass(internal), covered);
      }
    }
    return findings.stream().distinct().toList();
  }

  private static void add(List<EffectFinding> findings, String owner, String member, Set<String> effects, Set<String> covered) {
    effects.stream().filter(e -> !covered.contains(e)).forEach(e -> findings.add(new EffectFinding(owner, member, e)));
  }
}
