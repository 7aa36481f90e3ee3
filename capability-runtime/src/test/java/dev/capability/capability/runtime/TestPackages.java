package dev.capability.capability.runtime;

import dev.capability.capability.api.Capability;
import dev.capability.capability.runtime.internal.manifest.Integrity;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds real capability packages at test time: javac-compiled classes packed into a jar. Public
 * for the CLI's tests, which run the commands on such packages.
 */
public final class TestPackages {
  private TestPackages() {}

  /** Compiles {@code sources} (binary class name to source) and packs the classes into a jar. */
  public static byte[] jar(Path work, Map<String, String> sources, Manifest manifest, Map<String, String> extraFiles)
      throws IOException {
    Map<String, String> files = new LinkedHashMap<>();
    sources.forEach((className, source) -> files.put(className.replace('.', '/') + ".java", source));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JarOutputStream jar = manifest == null ? new JarOutputStream(bytes) : new JarOutputStream(bytes, manifest)) {
      for (var compiled : classes(work, files).entrySet()) {
        jar.putNextEntry(new JarEntry(compiled.getKey()));
        jar.write(compiled.getValue());
        jar.closeEntry();
      }
      for (var extra : extraFiles.entrySet()) {
        jar.putNextEntry(new JarEntry(extra.getKey()));
        jar.write(extra.getValue().getBytes(StandardCharsets.UTF_8));
        jar.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  /**
   * javac-compiled class files of {@code sourceFiles} (source file path, such as
   * {@code a/R.java} or {@code module-info.java}, to source) against the capability API, by jar
   * entry name, in name order.
   */
  public static Map<String, byte[]> classes(Path work, Map<String, String> sourceFiles) throws IOException {
    Path src = Files.createTempDirectory(work, "src");
    Path out = Files.createTempDirectory(work, "classes");
    List<String> args = new ArrayList<>(List.of("--release", "17", "-d", out.toString(), "-cp", apiClassPath()));
    for (var source : sourceFiles.entrySet()) {
      Path file = src.resolve(source.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
      args.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    if (javac.run(null, null, errors, args.toArray(String[]::new)) != 0) {
      throw new IllegalStateException("fixture does not compile: " + errors.toString(StandardCharsets.UTF_8));
    }
    Map<String, byte[]> classes = new LinkedHashMap<>();
    try (Stream<Path> files = Files.walk(out)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        classes.put(out.relativize(file).toString(), Files.readAllBytes(file));
      }
    }
    return classes;
  }

  /** Writes a package directory holding {@code lib/cap.jar} and a manifest declaring it. */
  public static Path directory(Path root, byte[] jar, String entryClass, String effectsJson) throws IOException {
    Files.createDirectories(root.resolve("lib"));
    Files.write(root.resolve("lib/cap.jar"), jar);
    Files.writeString(root.resolve("capability.json"), manifest(Integrity.of(jar), entryClass, effectsJson));
    return root;
  }

  public static String manifest(String integrity, String entryClass, String effectsJson) {
    return """
        {
          "name": "test-capability",
          "version": "1.2.3",
          "entry": {"module": "./lib/cap.jar", "class": "%s"},
          "modules": {"./lib/cap.jar": "%s"},
          "effects": %s,
          "input": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
          "output": {"type": "object"},
          "hooks": ["verify"]
        }
        """.formatted(entryClass, integrity, effectsJson);
  }

  /**
   * A package {@code tool} under {@code work/packages} whose capability {@code com.example.Tool}
   * returns {@code {"ok":true}} and whose {@code verify} hook agrees, declaring {@code effectsJson}.
   */
  static CapabilityPackage verifyingTool(Path work, String effectsJson) throws IOException {
    String source =
        """
        package com.example;
        public final class Tool implements dev.capability.capability.api.Capability {
          @Override
          public String execute(String in, dev.capability.capability.api.CapabilityContext context) { return "{\\"ok\\":true}"; }
          @Override
          public boolean verify(String in, String out, dev.capability.capability.api.CapabilityContext context) { return true; }
        }
        """;
    byte[] jar = jar(work, Map.of("com.example.Tool", source), null, Map.of());
    return CapabilityPackages.open(directory(work.resolve("packages").resolve("tool"), jar, "com.example.Tool", effectsJson));
  }

  /**
   * The body of an {@code execute} that starts {@code /bin/sh -c 'echo pwned > TARGET'} through
   * {@code ProcessBuilder}, found by reflection under a name built at run time (so the effect scan
   * sees only reflection), waits for it and returns {@code {"spawned": <exit status>}}; when the
   * start fails it throws {@code IllegalStateException("refused: <why>")}.
   */
  public static String reflectiveSpawn(String target) {
    return """
        String lang = new StringBuilder(".gnal.avaj").reverse().toString();
        try {
          Class<?> builderType = Class.forName(lang + new StringBuilder("redliuBssecorP").reverse());
          Object builder = builderType.getConstructor(String[].class)
              .newInstance((Object) new String[] {"/bin/sh", "-c", "echo pwned > %s"});
          Object process = builderType.getMethod("start").invoke(builder);
          Object status = Class.forName(lang + new StringBuilder("ssecorP").reverse()).getMethod("waitFor").invoke(process);
          return "{\\"spawned\\":" + status + "}";
        } catch (java.lang.reflect.InvocationTargetException e) {
          throw new IllegalStateException("refused: " + e.getCause());
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException("reflection failed: " + e);
        }
        """.formatted(target);
  }

  public static String capabilitySource(String className, String staticBody, String executeBody) {
    int dot = className.lastIndexOf('.');
    return """
        package %s;
        public final class %s implements dev.capability.capability.api.Capability {
          static { %s }
          @Override
          public String execute(String inputJson, dev.capability.capability.api.CapabilityContext context) {
            %s
          }
        }
        """.formatted(className.substring(0, dot), className.substring(dot + 1), staticBody, executeBody);
  }

  private static String apiClassPath() {
    try {
      return Path.of(Capability.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
