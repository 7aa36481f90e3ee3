package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.capability.runtime.internal.manifest.Integrity;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The effect scan on javac-built packages, family by family: what each API makes a package
 * declare, that a package which does not declare it is refused, and the ways around the scan it
 * closes (inherited members, computed names, non-javac bootstrap methods).
 */
class EffectScanTest {
  private static final String ENTRY = "com.example.Tool";
  private static final String ALL_DYNAMIC = "\"code.dynamic\": [\"reflection\", \"method-handles\", \"proxy\", \"service-loader\"]";
  @TempDir Path work;

  /** A package whose entry class runs {@code body} in {@code execute}, with {@code others} (file path to source) beside it. */
  private Map<String, byte[]> classes(String body, Map<String, String> others) throws IOException {
    Map<String, String> sources = new LinkedHashMap<>(others);
    sources.put("com/example/Tool.java", TestPackages.capabilitySource(ENTRY, "", body + " return \"{}\";"));
    return TestPackages.classes(work, sources);
  }

  private Map<String, byte[]> classes(String body) throws IOException {
    return classes(body, Map.of());
  }

  private Path pkg(Map<String, byte[]> classes, String effects) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (var entry : classes.entrySet()) {
        zip.putNextEntry(new ZipEntry(entry.getKey()));
        zip.write(entry.getValue());
        zip.closeEntry();
      }
    }
    byte[] jar = bytes.toByteArray();
    Path root = Files.createTempDirectory(work, "package");
    Files.createDirectories(root.resolve("lib"));
    Files.write(root.resolve("lib/cap.jar"), jar);
    Files.writeString(root.resolve("capability.json"), TestPackages.manifest(Integrity.of(jar), ENTRY, effects));
    return root;
  }

  /** The findings that refuse the package, or none when it is accepted. */
  private List<EffectFinding> findings(Map<String, byte[]> classes, String effects) throws IOException {
    Path pkg = pkg(classes, effects);
    try {
      CapabilityPackages.open(pkg);
      return List.of();
    } catch (UndeclaredEffectException e) {
      return e.findings();
    }
  }

  private List<String> effects(Map<String, byte[]> classes, String declared) throws IOException {
    return findings(classes, declared).stream().map(EffectFinding::effect).distinct().sorted().toList();
  }

  @Test
  void environmentReadsAreSecretReads() throws IOException {
    Map<String, byte[]> oneVariable = classes("System.getenv(\"API_TOKEN\");");
    Map<String, byte[]> wholeEnvironment = classes("System.getenv().size();");

    assertThat(findings(oneVariable, "{}")).contains(new EffectFinding("com/example/Tool", "java/lang/System.getenv", "secrets.read"));
    assertThat(effects(wholeEnvironment, "{}")).containsExactly("secrets.read");
    assertThat(findings(oneVariable, "{\"secrets.read\": [\"API_TOKEN\"]}")).isEmpty();
    assertThat(effects(classes("new ProcessBuilder(\"true\").environment();"), "{}")).containsExactly("process.spawn", "secrets.read");
  }

  @Test
  void everyFormOfDynamicCodeMustBeDeclaredByItsMechanism() throws IOException {
    Map<String, String> bodies = new LinkedHashMap<>();
    String computed = "String name = inputJson.isEmpty() ? \"x\" : inputJson;";
    bodies.put("try { " + computed + " Class.forName(name); } catch (ReflectiveOperationException e) { }", "code.dynamic(reflection)");
    bodies.put(
        "try { " + computed + " Class.forName(name, false, getClass().getClassLoader()); } catch (ReflectiveOperationException e) { }",
        "code.dynamic(reflection)");
    bodies.put("try { getClass().getClassLoader().loadClass(inputJson); } catch (ReflectiveOperationException e) { }", "code.dynamic(reflection)");
    bodies.put("try { getClass().getMethod(inputJson).invoke(this); } catch (ReflectiveOperationException e) { }", "code.dynamic(reflection)");
    bodies.put("try { getClass().getDeclaredConstructor().newInstance(); } catch (ReflectiveOperationException e) { }", "code.dynamic(reflection)");
    bodies.put("try { getClass().getDeclaredField(inputJson).get(this); } catch (ReflectiveOperationException e) { }", "code.dynamic(reflection)");
    bodies.put(
        "try { new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(new byte[0])).readObject(); } catch (Exception e) { }",
        "code.dynamic(reflection)");
    bodies.put(
        "try { java.lang.invoke.MethodHandles.lookup().findStatic(getClass(), inputJson, java.lang.invoke.MethodType.methodType(void.class)); }"
            + " catch (ReflectiveOperationException e) { }",
        "code.dynamic(method-handles)");
    bodies.put(
        "java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Runnable.class}, (p, m, a) -> null);",
        "code.dynamic(proxy)");
    bodies.put("java.util.ServiceLoader.load(Runnable.class).findFirst();", "code.dynamic(service-loader)");

    for (var body : bodies.entrySet()) {
      Map<String, byte[]> classes = classes(body.getKey());
      String mechanism = body.getValue().substring("code.dynamic(".length(), body.getValue().length() - 1);

      assertThat(effects(classes, "{}")).as(body.getKey()).containsExactly(body.getValue());
      assertThat(effects(classes, "{\"code.dynamic\": [\"" + mechanism + "\"]}")).as(body.getKey()).isEmpty();
      String other = mechanism.equals("proxy") ? "reflection" : "proxy";
      assertThat(effects(classes, "{\"code.dynamic\": [\"" + other + "\"]}")).as(body.getKey() + " declared as " + other)
          .containsExactly(body.getValue());
    }
  }

  @Test
  void lambdasRecordsAndStringConcatenationAreNotDynamicCode() throws IOException {
    String body = "Runnable r = () -> context.log(\"x\" + inputJson); r.run(); record Pair(int a, String b) { } new Pair(1, inputJson).hashCode();";

    assertThat(findings(classes(body), "{}")).isEmpty();
  }

  @Test
  void aBootstrapMethodJavacDoesNotEmitIsDynamicCode() throws IOException {
    Map<String, byte[]> classes = classes("Runnable r = () -> { }; r.run();");
    byte[] tool = classes.get("com/example/Tool.class");
    // The same class with its lambda bootstrapped by a method of the package's own: same length,
    // so the class file stays well formed.
    byte[] bootstrapped = replace(tool, "java/lang/invoke/LambdaMetafactory", "com/example/evil/LambdaMetafactory");
    Map<String, byte[]> patched = new LinkedHashMap<>(classes);
    patched.put("com/example/Tool.class", bootstrapped);

    assertThat(findings(classes, "{}")).isEmpty();
    assertThat(findings(patched, "{}"))
        .contains(new EffectFinding("com/example/Tool", "bootstrap method com/example/evil/LambdaMetafactory.metafactory", "code.dynamic(method-handles)"));
    assertThat(findings(patched, "{\"code.dynamic\": [\"method-handles\"]}")).isEmpty();
  }

  @Test
  void aClassLoaderSubclassCallingDefineClassWithoutSuperIsRefusedWhateverItDeclares() throws IOException {
    Map<String, byte[]> classes =
        classes(
            "new L().d(new byte[0]);",
            Map.of("com/example/L.java", "package com.example; class L extends ClassLoader { Class<?> d(byte[] b) { return defineClass(null, b, 0, b.length); } }"));

    assertThatThrownBy(() -> CapabilityPackages.open(pkg(classes, "{" + ALL_DYNAMIC + "}")))
        .isInstanceOfSatisfying(
            UndeclaredEffectException.class,
            e -> {
              assertThat(e.code()).isEqualTo(CapabilityCodes.EFFECT_UNDECLARED);
              assertThat(e.findings())
                  .contains(new EffectFinding("com/example/L", "com/example/L.defineClass, inherited from java/lang/ClassLoader", "class.define"));
            });
  }

  @Test
  void inheritedMembersAreResolvedThroughThePackagesOwnHierarchyAndTheJdks() throws IOException {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put("com/example/L.java", "package com.example; class L extends java.security.SecureClassLoader { }");
    sources.put("com/example/M.java", "package com.example; class M extends L { Class<?> d(byte[] b) { return defineClass(\"x\", b, 0, b.length); } }");
    sources.put("com/example/F.java", "package com.example; class F extends java.io.File { F() { super(\"x\"); } boolean gone() { return delete(); } }");
    sources.put("com/example/P.java",
        "package com.example; class P extends java.lang.reflect.Proxy { P() { super(null); }"
            + " static Object make() { return newProxyInstance(null, new Class<?>[0], null); } }");
    sources.put("com/example/D.java", "package com.example; interface D extends javax.sql.DataSource { }");
    sources.put("com/example/U.java",
        "package com.example; class U { Object u(D d, java.security.SecureClassLoader s) throws Exception { d.getConnection(); return s.loadClass(\"a\"); } }");

    List<EffectFinding> findings = findings(classes("", sources), "{}");

    assertThat(findings)
        .contains(
            new EffectFinding("com/example/M", "com/example/M.defineClass, inherited from java/security/SecureClassLoader", "class.define"),
            new EffectFinding("com/example/F", "com/example/F.delete, inherited from java/io/File", "filesystem.write"),
            new EffectFinding("com/example/P", "com/example/P.newProxyInstance, inherited from java/lang/reflect/Proxy", "code.dynamic(proxy)"),
            new EffectFinding("com/example/U", "com/example/D.getConnection, inherited from javax/sql/DataSource", "database.write"),
            new EffectFinding("com/example/U", "java/security/SecureClassLoader.loadClass, inherited from java/lang/ClassLoader", "code.dynamic(reflection)"));
  }

  @Test
  void aMemberThePackageDeclaresItselfIsItsOwnCodeNotTheJdks() throws IOException {
    Map<String, byte[]> classes =
        classes(
            "new L().use();",
            Map.of("com/example/L.java",
                "package com.example; class L extends ClassLoader { Class<?> defineClass(String name) { return null; } void use() { defineClass(\"x\"); } }"));

    assertThat(findings(classes, "{}")).isEmpty();
  }

  @Test
  void aCyclicHierarchyIsScannedWithoutLooping() throws IOException {
    Map<String, byte[]> first =
        TestPackages.classes(work, Map.of(
            "com/example/A.java", "package com.example; class A extends B { }",
            "com/example/B.java", "package com.example; class B { void delete() { } }",
            "com/example/C.java", "package com.example; class C { void c(A a) { a.delete(); } }",
            "com/example/Tool.java", TestPackages.capabilitySource(ENTRY, "", "return \"{}\";")));
    // B compiled again, now extending A: A extends B extends A, and neither declares delete().
    Map<String, byte[]> second =
        TestPackages.classes(work, Map.of(
            "com/example/B.java", "package com.example; class B extends A { }",
            "com/example/A.java", "package com.example; class A { }"));
    Map<String, byte[]> cyclic = new LinkedHashMap<>(first);
    cyclic.put("com/example/B.class", second.get("com/example/B.class"));

    assertThat(findings(cyclic, "{}")).isEmpty();
  }

  @Test
  void databaseMailAndGitApisNeedTheirEffects() throws IOException {
    Map<String, byte[]> jdbc = classes("try { java.sql.DriverManager.getConnection(inputJson).close(); } catch (java.sql.SQLException e) { }");
    assertThat(effects(jdbc, "{}")).containsExactly("database.write");
    assertThat(effects(jdbc, "{\"database.write\": [\"notes\"]}")).isEmpty();

    // The libraries are not in the JDK, so a package carries them: stand-ins with their names.
    Map<String, byte[]> mail =
        classes(
            "jakarta.mail.Transport.send(inputJson);",
            Map.of("jakarta/mail/Transport.java", "package jakarta.mail; public class Transport { public static void send(Object m) { } }"));
    assertThat(effects(mail, "{}")).containsExactly("email.send");
    assertThat(findings(mail, "{}")).contains(new EffectFinding("com/example/Tool", "jakarta/mail/Transport.send", "email.send"));
    assertThat(effects(mail, "{\"email.send\": [\"@example.org\"]}")).isEmpty();

    Map<String, byte[]> git =
        classes(
            "org.eclipse.jgit.api.Git.init();",
            Map.of("org/eclipse/jgit/api/Git.java", "package org.eclipse.jgit.api; public class Git { public static Object init() { return null; } }"));
    assertThat(effects(git, "{}")).containsExactly("git.mutate");
    assertThat(effects(git, "{\"git.mutate\": [\"repo\"]}")).isEmpty();
  }

  @Test
  void writesThroughAFileSystemProviderOrAFormatterAreFileWrites() throws IOException {
    String provider = "try { java.nio.file.FileSystems.getDefault().provider().newOutputStream(java.nio.file.Path.of(inputJson)).close(); }"
        + " catch (java.io.IOException e) { }";
    String formatterToFile = "try { new java.util.Formatter(inputJson).close(); } catch (java.io.IOException e) { }";
    String formatterToFileObject = "try { new java.util.Formatter(new java.io.File(inputJson)).close(); } catch (java.io.IOException e) { }";

    for (String body : List.of(provider, formatterToFile, formatterToFileObject)) {
      assertThat(effects(classes(body), "{}")).as(body).containsExactly("filesystem.write");
    }
    assertThat(findings(classes("new java.util.Formatter(new StringBuilder()).format(\"%s\", inputJson);"), "{}")).isEmpty();
  }

  @Test
  void aDynamicCodeScopeOutsideTheMechanismsIsRefused() throws IOException {
    Path pkg = pkg(classes(""), "{\"code.dynamic\": [\"everything\"]}");

    assertThatThrownBy(() -> CapabilityPackages.open(pkg))
        .isInstanceOf(dev.capability.kernel.api.CapabilityException.class)
        .hasMessageContaining("reflection, method-handles, proxy, service-loader")
        .extracting(e -> ((dev.capability.kernel.api.CapabilityException) e).code())
        .isEqualTo(CapabilityCodes.EFFECT_SCOPE_INVALID);
  }

  private static byte[] replace(byte[] bytes, String from, String to) {
    byte[] needle = from.getBytes(StandardCharsets.UTF_8);
    byte[] replacement = to.getBytes(StandardCharsets.UTF_8);
    byte[] copy = bytes.clone();
    int found = 0;
    for (int i = 0; i + needle.length <= copy.length; i++) {
      if (java.util.Arrays.equals(copy, i, i + needle.length, needle, 0, needle.length)) {
        System.arraycopy(replacement, 0, copy, i, replacement.length);
        found++;
      }
    }
    assertThat(found).as("occurrences of " + from).isEqualTo(1);
    return copy;
  }
}
