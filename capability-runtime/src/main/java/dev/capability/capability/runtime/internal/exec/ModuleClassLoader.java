package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.kernel.api.CapabilityException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;

/**
 * Defines a module's classes from its verified in-memory bytes, so nothing is re-read from disk
 * after the integrity check. Names resolve only against the platform and the capability API; this
 * keeps the host's classes out of the module's way, it is no isolation (the API's own loader is
 * reachable from the module).
 */
final class ModuleClassLoader extends ClassLoader {
  private static final String API_PACKAGE = "dev.capability.capability.api.";

  static {
    registerAsParallelCapable();
  }

  private final Map<String, byte[]> classes;
  private final ClassLoader api;

  ModuleClassLoader(String name, byte[] jar, ClassLoader api) {
    super(name, ClassLoader.getPlatformClassLoader());
    this.classes = classesOf(jar, name);
    this.api = api;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (name.startsWith(API_PACKAGE)) {
      return api.loadClass(name);
    }
    return super.loadClass(name, resolve);
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    byte[] bytes = classes.get(name);
    if (bytes == null) {
      throw new ClassNotFoundException(name);
    }
    return defineClass(name, bytes, 0, bytes.length);
  }

  private static Map<String, byte[]> classesOf(byte[] jar, String module) {
    Map<String, byte[]> classes = new HashMap<>();
    try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar), false)) {
      for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry()) {
        String name = entry.getName();
        if (!entry.isDirectory() && name.endsWith(".class") && !name.endsWith("module-info.class")) {
          classes.put(name.substring(0, name.length() - ".class".length()).replace('/', '.'), in.readAllBytes());
        }
      }
    } catch (IOException e) {
      throw new CapabilityException(CapabilityCodes.ARCHIVE_CORRUPT, "module " + module + " cannot be read as a jar: " + e.getMessage(), e);
    }
    return Map.copyOf(classes);
  }
}
