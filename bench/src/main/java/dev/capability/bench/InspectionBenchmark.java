package dev.capability.bench;

import dev.capability.capability.api.Capability;
import dev.capability.capability.runtime.CapabilityPackage;
import dev.capability.capability.runtime.CapabilityPackages;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Collections;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Inspection of a 10 MB package (a directory holding the manifest and one module jar with a class
 * and 10 MB of incompressible data): read, every structure checked, integrity, effect scan.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class InspectionBenchmark {
  private static final String ENTRY = Capability.class.getName();
  private Path root;

  @Setup(Level.Trial)
  public void makePackage() throws Exception {
    root = Files.createTempDirectory("inspection-benchmark");
    byte[] data = new byte[10 << 20];
    new Random(42).nextBytes(data);
    data[0] = 0; // never looks like a nested archive
    String classFile = ENTRY.replace('.', '/') + ".class";
    byte[] classBytes;
    try (InputStream in = Capability.class.getClassLoader().getResourceAsStream(classFile)) {
      classBytes = in.readAllBytes();
    }
    ByteArrayOutputStream jar = new ByteArrayOutputStream();
    try (JarOutputStream out = new JarOutputStream(jar)) {
      out.putNextEntry(new JarEntry(classFile));
      out.write(classBytes);
      out.closeEntry();
      out.putNextEntry(new JarEntry("data.bin"));
      out.write(data);
      out.closeEntry();
    }
    byte[] module = jar.toByteArray();
    String integrity = "sha512-" + Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-512").digest(module));
    Files.createDirectories(root.resolve("lib"));
    Files.write(root.resolve("lib/big.jar"), module);
    Files.writeString(
        root.resolve("capability.json"),
        "{\"name\":\"big\",\"version\":\"1.0.0\",\"entry\":{\"module\":\"./lib/big.jar\",\"class\":\"" + ENTRY + "\"},"
            + "\"modules\":{\"./lib/big.jar\":\"" + integrity + "\"},\"effects\":{},"
            + "\"input\":{\"type\":\"object\"},\"output\":{\"type\":\"object\"}}");
  }

  @TearDown(Level.Trial)
  public void removePackage() throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Collections.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  @Benchmark
  public CapabilityPackage inspect10MegabytePackage() {
    return CapabilityPackages.open(root);
  }
}
