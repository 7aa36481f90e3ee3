package dev.capability.capability.runtime.internal.scan;

import dev.capability.capability.runtime.EffectFinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds references to effect-causing APIs in a class file's constant pool: class constants
 * (including super types), field and method references (including those behind method handles)
 * and string constants naming such a class, the simplest form of reflection.
 */
public final class EffectScanner {
  private EffectScanner() {}

  /**
   * Every reference in {@code classFile} to an API whose effect is not in {@code declared}.
   *
   * @param declared effect ids the manifest declares
   */
  public static List<EffectFinding> undeclared(byte[] classFile, String where, Set<String> declared) {
    ClassFileReader.References refs = ClassFileReader.read(classFile, where);
    List<EffectFinding> findings = new ArrayList<>();
    for (String type : refs.classes()) {
      String element = type.replaceFirst("^\\[+L?", "").replaceFirst(";$", "");
      add(findings, refs.thisClass(), element, EffectRules.forClass(element), declared);
    }
    for (ClassFileReader.MemberRef ref : refs.members()) {
      add(findings, refs.thisClass(), ref.owner() + "." + ref.name(), EffectRules.forMember(ref), declared);
      add(findings, refs.thisClass(), ref.owner(), EffectRules.forClass(ref.owner()), declared);
    }
    for (String text : refs.strings()) {
      String internal = text.replace('.', '/');
      if (internal.length() < 200) {
        add(findings, refs.thisClass(), "\"" + text + "\"", EffectRules.forClass(internal), declared);
      }
    }
    return findings.stream().distinct().toList();
  }

  private static void add(
      List<EffectFinding> findings, String owner, String member, Optional<String> effect, Set<String> declared) {
    effect.filter(e -> !declared.contains(e)).ifPresent(e -> findings.add(new EffectFinding(owner, member, e)));
  }
}
