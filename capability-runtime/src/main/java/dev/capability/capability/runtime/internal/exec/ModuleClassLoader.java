package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.runtime.CapabilityCodes;
import dev.capability.kernel.api.CapabilityException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;

/**
 * Defines a module's classes from its verified in-memory bytes, so nothing is re-read from disk
 * after the integrity check. Names resolve only against the platform and the capability API; this
 * keeps the host's classes out of the module's way, it is no isolation (the API's own loader is
 * reachable from the module).
 *
 * <p>The module's other entries are served by {@link #getResourceAsStream}, from the same verified
 * bytes and before any parent's: a module reads its own data (the OpenAPI invoker its binding),
 * never a file. Class files are not served as resources.
 */
final class ModuleClassLoader extends ClassLoader {
  private static final String API_PACKAGE = "dev.capability.capability.api.";

  static {
    registerAsParallelCapable();
  }

  private final Map<String, byte[]> classes;
  private final Map<String, byte[]> resources;
  private final ClassLoader api;

  ModuleClassLoader(String name, byte[] jar, ClassLoader api) {
    super(name, ClassLoader.getPlatformClassLoader());
    Map<String, byte[]> classes = new HashMap<>();
    Map<String, byte[]> resources = new HashMap<>();
    read(jar, name, classes, resources);
    this.classes = Map.copyOf(classes);
    this.resources = Map.copyOf(resources);
    this.api = api;
  }

  @Override
  public InputStream getResourceAsStream(String name) {
    byte[] bytes = resources.get(name);
    return bytes != null ? new ByteArrayInputStream(bytes) : super.getResourceAsStream(name);
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

  private static void read(byte[] jar, String module, Map<String, byte[]> classes, Map<String, byte[]> resources) {
    try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar), false)) {
      for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry()) {
        String name = entry.getName();
        if (!entry.isDirectory() && name.endsWith(".class") && !name.endsWith("module-info.class")) {
          classes.put(name.substring(0, name.length() - ".class".length()).replace('/', '.'), in.readAllBytes());
        } else if (!entry.isDirectory() && !name.endsWith(".class")) {
          resources.put(name, in.readAllBytes());
        }
      }
    } catch (IOException e) {
      throw new CapabilityException(CapabilityCodes.ARCHIVE_CORRUPT, "module " + module + " cannot be read as a jar: " + e.getMessage(), e);
    }
  }
}
