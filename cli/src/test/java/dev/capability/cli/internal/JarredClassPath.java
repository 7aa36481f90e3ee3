package dev.capability.cli.internal;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The test's class path with each directory replaced by a jar of it, for a JVM that trains or maps
 * a static class data archive: the JVM lists and archives classes from jars only.
 */
final class JarredClassPath {
  private JarredClassPath() {}

  /** The class path, the jars of its directories written into {@code scratch}. */
  static String of(Path scratch) throws IOException {
    List<String> entries = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry);
      if (Files.isDirectory(path)) {
        Path jar = scratch.resolve("directory-" + entries.size() + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(path)) {
          for (Path file : files.filter(Files::isRegularFile).toList()) {
            out.putNextEntry(new JarEntry(path.relativize(file).toString().replace(File.separatorChar, '/')));
            Files.copy(file, out);
            out.closeEntry();
          }
        }
        entries.add(jar.toString());
      } else if (Files.isRegularFile(path)) {
        entries.add(entry);
      }
    }
    return String.join(File.pathSeparator, entries);
  }
}
