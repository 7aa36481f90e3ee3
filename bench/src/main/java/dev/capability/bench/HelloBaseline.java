package dev.capability.bench;

import dev.capability.capability.api.Capability;
import dev.capability.capability.api.CapabilityContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The raw baseline of {@link ChildJvmBenchmark}: the main of a plain {@code java -cp hello.jar:
 * capability-api.jar:baseline.jar} run. It reads the input on standard input, calls the hello
 * capability's {@code execute} and prints the JSON it returns; no runtime, no Jackson, no kernel.
 */
public final class HelloBaseline {
  private HelloBaseline() {}

  public static void main(String[] args) throws IOException, ReflectiveOperationException {
    String input = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
    Capability hello =
        Class.forName("com.example.hello.Hello").asSubclass(Capability.class).getDeclaredConstructor().newInstance();
    System.out.println(hello.execute(input, new LogOnly()));
  }

  private static final class LogOnly implements CapabilityContext {
    @Override
    public List<Path> readablePaths() {
      return List.of();
    }

    @Override
    public List<Path> writablePaths() {
      return List.of();
    }

    @Override
    public void log(String line) {
      System.err.println(line);
    }
  }
}
