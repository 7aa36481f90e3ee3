package dev.capability.capability.runtime.internal.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.TestPackages;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the scan reads of a class's place in its hierarchy, on javac-built classes and the JDK's own. */
class ClassHierarchyTest {
  private static final int CHAIN = 10;
  @TempDir Path work;

  /** {@code A0 extends A1 ... extends A9 extends Thread}, and {@code U} calling two members A0 inherits from Thread. */
  private List<ClassFileReader.References> chain() throws IOException {
    Map<String, String> sources = new LinkedHashMap<>();
    for (int i = 0; i < CHAIN; i++) {
      String parent = i + 1 < CHAIN ? " extends A" + (i + 1) : " extends Thread";
      sources.put("a/A" + i + ".java", "package a; public class A" + i + parent + " { }");
    }
    sources.put("a/U.java", "package a; class U { int u(A0 a) { return a.getName().length() + (a.isDaemon() ? 1 : 0); } }");
    return TestPackages.classes(work, sources).entrySet().stream()
        .map(entry -> ClassFileReader.read(entry.getValue(), entry.getKey()))
        .toList();
  }

  @Test
  void readsSupertypesOwnMembersAndBootstrapMethods() throws IOException {
    Map<String, byte[]> classes =
        TestPackages.classes(work, Map.of("a/R.java",
            "package a; public class R extends java.io.File implements Runnable, java.io.Closeable {"
                + " R() { super(\"x\"); } public void run() { Runnable r = () -> { }; r.run(); } public void close() { } }"));

    ClassFileReader.References refs = ClassFileReader.read(classes.get("a/R.class"), "R");

    assertThat(refs.superClass()).hasValue("java/io/File");
    assertThat(refs.interfaces()).containsExactly("java/lang/Runnable", "java/io/Closeable");
    assertThat(refs.declares("run", "()V")).isTrue();
    assertThat(refs.declares("delete", "()Z")).isFalse();
    assertThat(refs.bootstraps()).contains(new ClassFileReader.MemberRef(
        "java/lang/invoke/LambdaMetafactory", "metafactory",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodType;"
            + "Ljava/lang/invoke/MethodHandle;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/CallSite;"));
  }

  @Test
  void readsTheJdksSupertypesFromItsClassFilesAndNothingForOtherNames() {
    ClassHierarchy hierarchy = ClassHierarchy.of(List.of());

    assertThat(hierarchy.withJdkSupertypes("java/security/SecureClassLoader"))
        .containsExactly("java/security/SecureClassLoader", "java/lang/ClassLoader", "java/lang/Object");
    assertThat(hierarchy.withJdkSupertypes("com/example/NotInTheJdk")).containsExactly("com/example/NotInTheJdk");
    assertThat(hierarchy.withJdkSupertypes("../java/lang/ClassLoader")).containsExactly("../java/lang/ClassLoader");
    assertThat(hierarchy.withJdkSupertypes("dev/capability/capability/runtime/internal/scan/ClassHierarchy"))
        .as("the host's own classes are not the JDK's")
        .containsExactly("dev/capability/capability/runtime/internal/scan/ClassHierarchy");
  }

  @Test
  void resolvesEachReferenceOnceAndRefusesAHierarchyOverItsBudget() throws IOException {
    List<ClassFileReader.References> classes = chain();
    ClassFileReader.MemberRef getName = new ClassFileReader.MemberRef("a/A0", "getName", "()Ljava/lang/String;");
    ClassFileReader.MemberRef isDaemon = new ClassFileReader.MemberRef("a/A0", "isDaemon", "()Z");
    assertThat(classes.stream().filter(c -> c.thisClass().equals("a/U")).findFirst().orElseThrow().members())
        .contains(getName, isDaemon);
    // Each resolution through the chain takes two steps a class: 20 of a budget of 30.
    ClassHierarchy hierarchy = ClassHierarchy.of(classes, 30);

    assertThat(hierarchy.externalOwners(getName)).containsExactly("java/lang/Thread");
    assertThat(hierarchy.externalOwners(getName)).as("resolved once, counted once").containsExactly("java/lang/Thread");
    assertThatThrownBy(() -> hierarchy.externalOwners(isDaemon))
        .isInstanceOfSatisfying(
            PackageRefusedException.class, e -> assertThat(e.code()).isEqualTo(CapabilityCodes.CLASS_HIERARCHY_TOO_COSTLY))
        .hasMessageContaining("a/A0.isDaemon");
    assertThat(ClassHierarchy.of(classes).externalOwners(isDaemon)).containsExactly("java/lang/Thread");
  }
}
