package dev.capability.capability.runtime.internal.scan;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.internal.effects.ScopeGrammar;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The supertypes of a package's classes, and of the JDK classes they reach, so that a member a
 * package class inherits is matched as the JDK member it is: {@code class L extends ClassLoader}
 * calling {@code defineClass(...)} compiles to a reference owned by {@code L}, not by {@code
 * ClassLoader}.
 *
 * <p>Package classes are known from their bytes. JDK classes are read as bytes too, from the
 * platform class loader's class-file resources, never loaded; a name the JDK does not have (a
 * library the package carries, or a class missing from the package) is its own only supertype.
 * One instance serves one inspection: it caches what it reads.
 */
public final class ClassHierarchy {
  /** What the JDK could have: ASCII internal names, no empty, {@code .} or {@code ..} segments. */
  private static final Pattern JDK_NAME = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(/[A-Za-z_$][A-Za-z0-9_$]*)*");
  private static final int MAX_NAME = 256;
  /**
   * Steps (package classes visited and supertypes followed) one inspection may take resolving
   * inherited members. Each
   * distinct reference is resolved once; an ordinary package takes a step or two per reference,
   * while a chain of thousands of classes referenced by millions of distinct members would take
   * hours without a bound.
   */
  private static final long MAX_STEPS = 20_000_000;

  private final Map<String, List<ClassFileReader.References>> packageClasses = new HashMap<>();
  private final Map<String, List<String>> jdkSupertypes = new HashMap<>();
  private final Map<ClassFileReader.MemberRef, Set<String>> resolved = new HashMap<>();
  private final long maxSteps;
  private long steps;

  private ClassHierarchy(Collection<ClassFileReader.References> classes, long maxSteps) {
    // Two modules may hold a class of the same name; every one of them counts.
    classes.forEach(refs -> packageClasses.computeIfAbsent(refs.thisClass(), name -> new ArrayList<>()).add(refs));
    this.maxSteps = maxSteps;
  }

  /** The hierarchy of a package made of {@code classes} (every class of every module). */
  public static ClassHierarchy of(Collection<ClassFileReader.References> classes) {
    return new ClassHierarchy(classes, MAX_STEPS);
  }

  /** The same, with a smaller budget of steps, for the budget's own test. */
  static ClassHierarchy of(Collection<ClassFileReader.References> classes, long maxSteps) {
    return new ClassHierarchy(classes, maxSteps);
  }

  /**
   * The classes outside the package where a reference to {@code ref} can land: the owner itself
   * when the package does not hold it, otherwise the first classes outside the package on every
   * superclass and superinterface path that does not pass a package class declaring the member.
   * A member a package class declares is the package's own code, scanned where it is written.
   */
  Set<String> externalOwners(ClassFileReader.MemberRef ref) {
    if (!packageClasses.containsKey(ref.owner())) {
      return Set.of(ref.owner());
    }
    Set<String> known = resolved.get(ref);
    if (known == null) {
      known = resolve(ref);
      resolved.put(ref, known);
    }
    return known;
  }

  private Set<String> resolve(ClassFileReader.MemberRef ref) {
    Set<String> external = new LinkedHashSet<>();
    Set<String> seen = new HashSet<>();
    Deque<String> pending = new ArrayDeque<>(List.of(ref.owner()));
    while (!pending.isEmpty()) {
      String name = pending.remove();
      if (!seen.add(name)) {
        continue;
      }
      List<ClassFileReader.References> inPackage = packageClasses.get(name);
      if (inPackage == null) {
        external.add(name);
        continue;
      }
      for (ClassFileReader.References refs : inPackage) {
        steps += 2 + refs.interfaces().size();
        if (steps > maxSteps) {
          throw new PackageRefusedException(
              CapabilityCodes.CLASS_HIERARCHY_TOO_COSTLY,
              "resolving inherited members through the package's class hierarchy takes more than " + maxSteps
                  + " steps (at " + ScopeGrammar.printable(ref.owner()) + "." + ScopeGrammar.printable(ref.name()) + ")");
        }
        if (!refs.declares(ref.name(), ref.descriptor())) {
          refs.superClass().ifPresent(pending::add);
          pending.addAll(refs.interfaces());
        }
      }
    }
    return external;
  }

  /** {@code name} and every supertype the JDK gives it, nearest first; just {@code name} outside the JDK. */
  Set<String> withJdkSupertypes(String name) {
    Set<String> all = new LinkedHashSet<>();
    Deque<String> pending = new ArrayDeque<>(List.of(name));
    while (!pending.isEmpty()) {
      String next = pending.remove();
      if (all.add(next)) {
        pending.addAll(jdkSupertypes(next));
      }
    }
    return all;
  }

  private List<String> jdkSupertypes(String name) {
    List<String> known = jdkSupertypes.get(name);
    if (known == null) {
      known = readJdkSupertypes(name);
      jdkSupertypes.put(name, known);
    }
    return known;
  }

  private static List<String> readJdkSupertypes(String name) {
    if (name.length() > MAX_NAME || !JDK_NAME.matcher(name).matches()) {
      return List.of();
    }
    // A class file is never encapsulated, so the platform loader (and the boot loader behind it)
    // finds every JDK class, exported or not, and no class of the application or the package.
    try (InputStream in = ClassLoader.getPlatformClassLoader().getResourceAsStream(name + ".class")) {
      if (in == null) {
        return List.of();
      }
      ClassFileReader.References refs = ClassFileReader.read(in.readAllBytes(), name);
      List<String> supertypes = new ArrayList<>();
      refs.superClass().ifPresent(supertypes::add);
      supertypes.addAll(refs.interfaces());
      return List.copyOf(supertypes);
    } catch (IOException | PackageRefusedException e) {
      // The JDK's own class files always read; one that does not is matched by its name alone.
      return List.of();
    }
  }
}
