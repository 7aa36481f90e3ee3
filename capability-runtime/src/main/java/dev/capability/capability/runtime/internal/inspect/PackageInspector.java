package dev.capability.capability.runtime.internal.inspect;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.capability.runtime.EffectFinding;
import dev.capability.capability.runtime.PackageRefusedException;
import dev.capability.capability.runtime.UndeclaredEffectException;
import dev.capability.capability.runtime.internal.archive.ArchiveLimits;
import dev.capability.capability.runtime.internal.archive.NestedArchives;
import dev.capability.capability.runtime.internal.archive.PackageContents;
import dev.capability.capability.runtime.internal.archive.ZipReader;
import dev.capability.capability.runtime.internal.manifest.Integrity;
import dev.capability.capability.runtime.internal.manifest.Manifest;
import dev.capability.capability.runtime.internal.manifest.ManifestParser;
import dev.capability.capability.runtime.internal.effects.ScopeGrammar;
import dev.capability.capability.runtime.internal.scan.ClassFileReader;
import dev.capability.capability.runtime.internal.scan.ClassHierarchy;
import dev.capability.capability.runtime.internal.scan.EffectScanner;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.jar.Attributes;

/**
 * Checks a package's contents against its manifest, inertly: integrity of every module, no class
 * outside a module, no service provider registration, no agent or class-path attribute, no class in
 * a platform or host namespace, no class newer than this JVM, no signature files, one manifest, and
 * no reference to an API for an undeclared effect. Nothing is loaded or written.
 *
 * <p>Entry names are compared without regard to case wherever the JDK's readers do (jar manifests,
 * service files, signature files), so {@code meta-inf/manifest.mf} is checked like
 * {@code META-INF/MANIFEST.MF}.
 */
public final class PackageInspector {
  public static final String MANIFEST = "capability.json";
  private static final String SERVICES = "meta-inf/services/";
  private static final String JAR_MANIFEST = "meta-inf/manifest.mf";
  private static final List<String> RESERVED_PACKAGES = List.of("java/", "javax/", "jdk/", "sun/", "com/sun/", "dev/capability/");
  private static final List<String> SIGNATURE_SUFFIXES = List.of(".sf", ".rsa", ".dsa", ".ec");
  /**
   * The one host class a package may carry: the OpenAPI invoker an import copies verbatim from the
   * host, accepted only byte for byte identical to the host's own copy. It lives in the
   * capability-openapi module, which builds on this one, so it is named rather than linked: a host
   * without that module on its class path has no copy, and accepts no package carrying the class.
   */
  private static final String INVOKER = "dev.capability.openapi.invoker.HttpOperationInvoker";
  private static final String INVOKER_ENTRY = INVOKER.replace('.', '/') + ".class";
  /** The class file major version of the running JVM (Java 17 is 61). */
  private static final int RUNTIME_MAJOR = Runtime.version().feature() + 44;
  private static final List<String> AGENT_ATTRIBUTES = List.of("Premain-Class", "Agent-Class", "Launcher-Agent-Class");
  private static final List<String> REFUSED_ATTRIBUTES = List.of("Add-Opens", "Add-Exports", "Enable-Native-Access");

  private PackageInspector() {}

  public static Manifest inspect(PackageContents contents, ArchiveLimits limits) {
    byte[] manifestBytes =
        contents.file(MANIFEST)
            .orElseThrow(() -> new PackageRefusedException(CapabilityCodes.MANIFEST_MISSING, "the package has no capability.json at its root"));
    Manifest manifest = ManifestParser.parse(manifestBytes);
    if (!manifest.entry().className().equals(INVOKER)) {
      checkReservedNamespace(manifest.entry().className().replace('.', '/'), "the entry class " + manifest.entry().className());
    }
    checkContainer(contents, manifest, "the package");
    Map<String, List<ClassFileReader.References>> classesByModule = new LinkedHashMap<>();
    for (var module : manifest.modules().entrySet()) {
      String path = module.getKey();
      byte[] bytes =
          contents.file(path)
              .orElseThrow(() -> new PackageRefusedException(CapabilityCodes.MODULE_MISSING, "module './" + path + "' is not in the package"));
      if (!Integrity.matches(module.getValue(), bytes)) {
        throw new PackageRefusedException(
            CapabilityCodes.MODULE_INTEGRITY_MISMATCH,
            "module './" + path + "' does not match its integrity " + module.getValue() + " (it is " + Integrity.of(bytes) + ")");
      }
      PackageContents jar = ZipReader.read(bytes, limits, false);
      checkContainer(jar, null, "module './" + path + "'");
      classesByModule.put(path, classes(path, jar));
      if (path.equals(manifest.entry().module())
          && !jar.fileNames().contains(manifest.entry().className().replace('.', '/') + ".class")) {
        throw new PackageRefusedException(
            CapabilityCodes.ENTRY_CLASS_MISSING, "entry class " + manifest.entry().className() + " is not in module './" + path + "'");
      }
    }
    // One hierarchy for the whole package: a class may extend a class of another module.
    ClassHierarchy hierarchy = ClassHierarchy.of(classesByModule.values().stream().flatMap(List::stream).toList());
    for (var module : classesByModule.entrySet()) {
      List<EffectFinding> findings = new ArrayList<>();
      for (ClassFileReader.References refs : module.getValue()) {
        findings.addAll(EffectScanner.undeclared(refs, hierarchy, manifest.effects()));
      }
      if (!findings.isEmpty()) {
        throw new UndeclaredEffectException(module.getKey(), findings);
      }
    }
    return manifest;
  }

  /** The checks shared by the package root and each module jar. */
  private static void checkContainer(PackageContents contents, Manifest manifest, String what) {
    String jarManifest = null;
    for (String name : contents.fileNames()) {
      String folded = name.toLowerCase(Locale.ROOT);
      if (folded.startsWith(SERVICES) && folded.length() > SERVICES.length()) {
        String service = ScopeGrammar.printable(name.substring(SERVICES.length()));
        throw folded.substring(SERVICES.length()).startsWith("dev.capability.")
            ? new PackageRefusedException(CapabilityCodes.PACKAGE_HOST_SPI, what + " registers a host service provider: " + service)
            : new PackageRefusedException(
                CapabilityCodes.PACKAGE_SERVICE_PROVIDER, what + " registers a service provider for " + service + " (no capability may)");
      }
      if (folded.equals(JAR_MANIFEST)) {
        jarManifest = name;
      }
      if (folded.startsWith("meta-inf/") && folded.indexOf('/', "meta-inf/".length()) < 0
          && (SIGNATURE_SUFFIXES.stream().anyMatch(folded::endsWith) || folded.startsWith("meta-inf/sig-"))) {
        throw new PackageRefusedException(
            CapabilityCodes.PACKAGE_SIGNED_JAR,
            what + " holds signature file '" + ScopeGrammar.printable(name) + "': modules are bound by the manifest's integrity, and"
                + " signatures inside them are not verified, so none is accepted");
      }
      String fileName = folded.substring(folded.lastIndexOf('/') + 1);
      if (fileName.equals(MANIFEST) && (manifest == null || !name.equals(MANIFEST))) {
        throw new PackageRefusedException(
            CapabilityCodes.PACKAGE_SECOND_MANIFEST,
            what + " holds a second capability manifest '" + ScopeGrammar.printable(name) + "'; only the package root's counts");
      }
      if (!(manifest == null && name.equals(INVOKER_ENTRY) && HostInvoker.BYTES.filter(own -> Arrays.equals(contents.fileUnsafe(name), own)).isPresent())) {
        checkReservedNamespace(name, what + " entry '" + ScopeGrammar.printable(name) + "'");
      }
      if (manifest != null && name.endsWith(".class")) {
        throw new PackageRefusedException(
            CapabilityCodes.PACKAGE_STRAY_CLASS, what + " holds class file '" + name + "' outside any declared module");
      }
      if (manifest != null && NestedArchives.isJar(name) && !manifest.modules().containsKey(name)) {
        throw new PackageRefusedException(CapabilityCodes.ARCHIVE_NESTED, what + " holds jar '" + name + "' that is not a declared module");
      }
    }
    if (jarManifest != null) {
      checkJarManifest(contents.fileUnsafe(jarManifest), what);
    }
  }

  /**
   * The host's own copy of the invoker class, read once, when a package first carries one; empty
   * when capability-openapi is not on the class path that loaded the runtime.
   */
  private static final class HostInvoker {
    static final Optional<byte[]> BYTES = read();

    private static Optional<byte[]> read() {
      try (InputStream in = PackageInspector.class.getClassLoader().getResourceAsStream(INVOKER_ENTRY)) {
        return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + INVOKER_ENTRY + " from the runtime's class path", e);
      }
    }
  }

  private static void checkReservedNamespace(String name, String what) {
    for (String reserved : RESERVED_PACKAGES) {
      if (name.startsWith(reserved)) {
        throw new PackageRefusedException(
            CapabilityCodes.PACKAGE_RESERVED_NAMESPACE,
            what + " is in the reserved namespace " + reserved.replace('/', '.') + "* (the platform's or the host's)");
      }
    }
  }

  private static void checkJarManifest(byte[] bytes, String what) {
    java.util.jar.Manifest jarManifest;
    try {
      jarManifest = new java.util.jar.Manifest(new ByteArrayInputStream(bytes));
    } catch (IOException e) {
      throw new PackageRefusedException(CapabilityCodes.PACKAGE_MANIFEST_ATTRIBUTE, what + " has an unreadable META-INF/MANIFEST.MF", e);
    }
    List<Attributes> sections = new ArrayList<>();
    sections.add(jarManifest.getMainAttributes());
    sections.addAll(jarManifest.getEntries().values());
    for (Attributes attributes : sections) {
      for (String agent : AGENT_ATTRIBUTES) {
        if (attributes.getValue(agent) != null) {
          throw new PackageRefusedException(CapabilityCodes.PACKAGE_AGENT, what + " declares a Java agent (" + agent + ")");
        }
      }
      if (attributes.getValue("Class-Path") != null) {
        throw new PackageRefusedException(CapabilityCodes.PACKAGE_CLASS_PATH, what + " declares a Class-Path");
      }
      for (String refused : REFUSED_ATTRIBUTES) {
        if (attributes.getValue(refused) != null) {
          throw new PackageRefusedException(CapabilityCodes.PACKAGE_MANIFEST_ATTRIBUTE, what + " declares " + refused);
        }
      }
    }
  }

  /** Refuses a class this JVM could not load, and a module descriptor that opens or provides. */
  private static void checkClass(ClassFileReader.References refs, String where) {
    ClassFileReader.Version version = refs.version();
    if (version.major() > RUNTIME_MAJOR || version.minor() == 0xFFFF) {
      throw new PackageRefusedException(
          CapabilityCodes.CLASS_FILE_TOO_NEW,
          "class file '" + ScopeGrammar.printable(where) + "' has version " + version.major() + "." + version.minor()
              + (version.minor() == 0xFFFF ? " (preview features)" : "") + "; this JVM reads up to " + RUNTIME_MAJOR);
    }
    refs.module().ifPresent(module -> {
      if (module.provides() > 0) {
        throw new PackageRefusedException(
            CapabilityCodes.PACKAGE_SERVICE_PROVIDER, "module descriptor '" + ScopeGrammar.printable(where) + "' provides services (no capability may)");
      }
      if (module.opens() > 0) {
        throw new PackageRefusedException(
            CapabilityCodes.PACKAGE_MODULE_OPENS, "module descriptor '" + ScopeGrammar.printable(where) + "' opens packages to reflection");
      }
    });
  }

  /** Reads and checks every class file of a module jar, in entry order. */
  private static List<ClassFileReader.References> classes(String module, PackageContents jar) {
    List<ClassFileReader.References> classes = new ArrayList<>();
    for (String name : jar.fileNames()) {
      if (name.endsWith(".class")) {
        String where = module + "!/" + name;
        ClassFileReader.References refs = ClassFileReader.read(jar.fileUnsafe(name), where);
        checkClass(refs, where);
        classes.add(refs);
      }
    }
    return classes;
  }
}
