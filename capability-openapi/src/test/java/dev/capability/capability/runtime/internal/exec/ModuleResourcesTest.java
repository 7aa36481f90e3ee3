package dev.capability.capability.runtime.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.capability.capability.api.Capability;
import dev.capability.capability.api.CapabilityContext;
import dev.capability.openapi.invoker.HttpOperationInvoker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The module class loader serves the module's own resources, and the HTTP invoker it defines reads its
 * binding from them. In the runtime's package (the loader is package-private) but in this module,
 * which holds the invoker; the runtime cannot depend on it.
 */
class ModuleResourcesTest {
  private static final String INVOKER = HttpOperationInvoker.class.getName();

  @Test
  void servesTheModulesOwnResourcesFromTheVerifiedBytesButNotItsClassFiles() throws IOException {
    byte[] jar = jar(Map.of("data/binding.properties", "key=value\n".getBytes(StandardCharsets.UTF_8), "x/Y.class", new byte[] {1, 2, 3}));
    ModuleClassLoader loader = new ModuleClassLoader("test", jar, Capability.class.getClassLoader());

    try (InputStream in = loader.getResourceAsStream("data/binding.properties")) {
      assertThat(in).isNotNull();
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("key=value\n");
    }
    assertThat(loader.getResourceAsStream("x/Y.class")).as("class files are not resources").isNull();
    assertThat(loader.getResourceAsStream("data/missing.properties")).isNull();
    assertThatThrownBy(() -> loader.loadClass("x.Y")).as("class definition still checks the bytes").isInstanceOf(ClassFormatError.class);
  }

  @Test
  void theInvokerDefinedByTheLoaderReadsItsOwnBindingAndCallsTheServer() throws Exception {
    List<String> seen = new ArrayList<>();
    HttpServer server = server(seen);
    try {
      int port = server.getAddress().getPort();
      Capability invoker = invoker(binding(port, "/api", "/items/{id}"));

      String output = invoker.execute("{\"path\":{\"id\":\"../x y\"},\"query\":{\"n\":3}}", new Log());

      assertThat(invoker.getClass().getClassLoader()).isInstanceOf(ModuleClassLoader.class);
      assertThat(output).isEqualTo("{\"status\":200,\"body\":\"ok\"}");
      assertThat(seen).containsExactly("GET /api/items/%2E%2E%2Fx%20y?n=3");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void theInvokerRefusesABindingWhoseUrlLeavesTheDeclaredServer() throws Exception {
    List<String> seen = new ArrayList<>();
    HttpServer server = server(seen);
    try {
      int port = server.getAddress().getPort();
      // A tampered template that would make the declared host:port user information of another host.
      Capability invoker = invoker(binding(port, "", "@localhost:" + port + "/items"));

      assertThatThrownBy(() -> invoker.execute("{}", new Log())).hasMessageContaining("leaves the declared server");
      assertThat(seen).isEmpty();
    } finally {
      server.stop(0);
    }
  }

  @Test
  void theInvokerRefusesParametersTheBindingDoesNotName() throws Exception {
    Capability invoker = invoker(binding(1, "", "/items/{id}"));

    assertThatThrownBy(() -> invoker.execute("{\"path\":{\"id\":\"1\"},\"header\":{\"Host\":\"evil\"}}", new Log()))
        .hasMessageContaining("input.header.Host is not a parameter");
    assertThatThrownBy(() -> invoker.execute("{\"path\":{\"id\":[1]}}", new Log())).hasMessageContaining("string, number or boolean");
    assertThatThrownBy(() -> invoker.execute("{\"path\":{\"id\":\"1\"},\"url\":\"http://evil\"}", new Log()))
        .hasMessageContaining("input.url is not one of");
  }

  @Test
  void aModuleWithoutABindingFailsClosed() throws Exception {
    ModuleClassLoader loader = new ModuleClassLoader("test", jar(Map.of(entryName(), invokerBytes())), Capability.class.getClassLoader());
    Capability invoker = Class.forName(INVOKER, true, loader).asSubclass(Capability.class).getDeclaredConstructor().newInstance();

    assertThatThrownBy(() -> invoker.execute("{}", new Log())).hasMessageContaining("has no " + HttpOperationInvoker.BINDING);
  }

  private static HttpServer server(List<String> seen) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        synchronized (seen) {
          seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath()
              + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery()));
        }
        byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      }
    });
    server.start();
    return server;
  }

  private static String binding(int port, String base, String path) {
    return "format=capability-http-operation/1\nmethod=GET\nscheme=http\nhost=127.0.0.1\nport=" + port + "\nbase=" + base
        + "\npath=" + path + "\npath.0=id\nquery.0=n\n";
  }

  private static Capability invoker(String binding) throws Exception {
    Map<String, byte[]> entries = new TreeMap<>();
    entries.put(entryName(), invokerBytes());
    entries.put(HttpOperationInvoker.BINDING, binding.getBytes(StandardCharsets.ISO_8859_1));
    ModuleClassLoader loader = new ModuleClassLoader("test", jar(entries), Capability.class.getClassLoader());
    return Class.forName(INVOKER, true, loader).asSubclass(Capability.class).getDeclaredConstructor().newInstance();
  }

  private static String entryName() {
    return INVOKER.replace('.', '/') + ".class";
  }

  private static byte[] invokerBytes() throws IOException {
    try (InputStream in = HttpOperationInvoker.class.getResourceAsStream("/" + entryName())) {
      return in.readAllBytes();
    }
  }

  private static byte[] jar(Map<String, byte[]> entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JarOutputStream jar = new JarOutputStream(bytes)) {
      for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
        jar.putNextEntry(new JarEntry(entry.getKey()));
        jar.write(entry.getValue());
        jar.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  private static final class Log implements CapabilityContext {
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
      // the invoker's request line; the assertions look at what the server saw
    }
  }
}
