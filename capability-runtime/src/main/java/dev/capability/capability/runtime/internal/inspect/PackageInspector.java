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
import dev.capability.capability.runtime.internal.scan.EffectScanner;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.stream.Collectors;

/**
 * Checks a package's contents against its manifest, inertly: integrity of every module, no class
 * outside a module, no host SPI registration, no agent or class-path attribute, and no reference
 * to an API for an undeclared effect. Nothing is loaded or written.
 */
public final class PackageInspector {
  public static final String MANIFEST = "capability.json";
  private static final String SERVICES = "META-INF/services/";
  private static final List<String> AGENT_ATTRIBUTES = List.of("Premain-Class", "Agent-Class", "Launcher-Agent-Class");
  private static final List<String> REFUSED_ATTRIBUTES = List.of("Add-Opens", "Add-Exports", "Enable-Native-Access");

  private PackageInspector() {}

  public static Manifest inspect(PackageContents contents, ArchiveLimits limits) {
    byte[] manifestBytes =
        contents.file(MANIFEST)
            .orElseThrow(() -> new PackageRefusedException(CapabilityCodes.MANIFEST_MISSING, "the package has no capability.json at its root"));
    Manifest manifest = ManifestParser.parse(manifestBytes);
    checkContainer(contents, manifest, "the package");
    Set<String> declared = manifest.effects().stream().map(e -> e.kind().id()).collect(Collectors.toSet());
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
      scan(path, jar, declared);
      if (path.equals(manifest.entry().module())
          && !jar.fileNames().contains(manifest.entry().className().replace('.', '/') + ".class")) {
        throw new PackageRefusedException(
            CapabilityCodes.ENTRY_CLASS_MISSING, "entry class " + manifest.entry().className() + " is not in module './" + path + "'");
      }
    }
    return manifest;
  }

  /** The checks shared by the package root and each module jar. */
  private static void checkContainer(PackageContents contents, Manifest manifest, String what) {
    for (String name : contents.fileNames()) {
      if (name.startsWith(SERVICES) && name.substring(SERVICES.length()).startsWith("dev.capability.")) {
        throw new PackageRefusedException(
            CapabilityCodes.PACKAGE_HOST_SPI, what + " registers a host service provider: " + name);
      }
      if (manifest != null && name.endsWith(".class")) {
        throw new PackageRefusedException(
            CapabilityCodes.PACKAGE_STRAY_CLASS, what + " holds class file '" + name + "' outside any declared module");
      }
      if (manifest != null && NestedArchives.isJar(name) && !manifest.modules().containsKey(name)) {
        throw new PackageRefusedException(CapabilityCodes.ARCHIVE_NESTED, what + " holds jar '" + name + "' that is not a declared module");
      }
    }
    contents.file("META-INF/MANIFEST.MF").ifPresent(bytes -> checkJarManifest(bytes, what));
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

  private static void scan(String module, PackageContents jar, Set<String> declared) {
    List<EffectFinding> findings = new ArrayList<>();
    for (String name : jar.fileNames()) {
      if (name.endsWith(".class")) {
        findings.addAll(EffectScanner.undeclared(jar.fileUnsafe(name), module + "!/" + name, declared));
      }
    }
    if (!findings.isEmpty()) {
      throw new UndeclaredEffectException(module, findings);
    }
  }

}
