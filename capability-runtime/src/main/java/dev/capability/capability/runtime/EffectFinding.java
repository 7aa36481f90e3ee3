package dev.capability.capability.runtime;

import java.util.Objects;

/**
 * One reference, found in a class file's constant pool, to an API that can cause an effect.
 *
 * @param className the binary name of the referencing class, for example {@code com/example/Tool}
 * @param member the referenced API, for example {@code java/io/FileOutputStream.<init>}; a member
 *     the class inherits names the JDK class it comes from ({@code com/example/L.defineClass,
 *     inherited from java/lang/ClassLoader})
 * @param effect the effect the API can cause: an {@link EffectKind#id()}; for dynamic code the
 *     kind with the mechanism to declare ({@code code.dynamic(reflection)}); or {@code
 *     native.load}, {@code class.define} or {@code jvm.internal}, which no manifest can declare
 */
public record EffectFinding(String className, String member, String effect) {
  public EffectFinding {
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(member, "member");
    Objects.requireNonNull(effect, "effect");
  }

  @Override
  public String toString() {
    return className + " -> " + member + " (" + effect + ")";
  }
}
