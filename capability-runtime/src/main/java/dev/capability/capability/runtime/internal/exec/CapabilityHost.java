package dev.capability.capability.runtime.internal.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capability.capability.api.Capability;
import dev.capability.capability.runtime.HookOutcome;
import dev.capability.capability.runtime.internal.manifest.Integrity;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The main of the child JVM that runs one capability. It reads one JSON request on standard input:
 *
 * <pre>{"module": "/abs/cap.jar", "integrity": "sha512-...", "entry": "com.example.Tool",
 *  "input": "{...}", "readable": ["/abs"], "writable": ["/abs"], "verify": true, "rollback": false}</pre>
 *
 * checks the module bytes against the integrity again, defines the classes from those bytes, runs
 * the lifecycle and writes one JSON response on standard output: {@code output} (or null),
 * {@code failure} (or null) and {@code hooks}. Everything the capability prints, to either stream,
 * goes to standard error, the run's log, so it cannot forge the response. Exit status 0 means a
 * response was written (the capability may still have failed); 2 means the request was refused.
 */
public final class CapabilityHost {
  static final int MAX_REQUEST = 2 << 20;
  private static final ObjectMapper JSON = new ObjectMapper();

  private CapabilityHost() {}

  public static void main(String[] args) {
    PrintStream response = System.out;
    PrintStream log = System.err;
    System.setOut(log);
    int status = run(System.in, response, log);
    response.flush();
    System.exit(status);
  }

  static int run(InputStream in, OutputStream response, PrintStream log) {
    JsonNode request;
    try {
      byte[] bytes = in.readNBytes(MAX_REQUEST + 1);
      if (bytes.length > MAX_REQUEST) {
        log.println("capability-host: the request is larger than " + MAX_REQUEST + " bytes");
        return 2;
      }
      request = JSON.readTree(bytes);
      Path module = Path.of(text(request, "module"));
      byte[] jar = Files.readAllBytes(module);
      if (!Integrity.matches(text(request, "integrity"), jar)) {
        log.println("capability-host: module " + module + " does not match its integrity");
        return 2;
      }
      Lifecycle.Outcome outcome = runCapability(request, jar, log);
      response.write(JSON.writeValueAsBytes(toJson(outcome)));
      response.flush();
      return 0;
    } catch (IOException | IllegalArgumentException e) {
      log.println("capability-host: bad request: " + e.getMessage());
      return 2;
    }
  }

  private static Lifecycle.Outcome runCapability(JsonNode request, byte[] jar, PrintStream log) {
    ModuleClassLoader loader = new ModuleClassLoader("capability", jar, Capability.class.getClassLoader());
    Capability capability;
    try {
      capability =
          Class.forName(text(request, "entry"), true, loader).asSubclass(Capability.class).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      Throwable cause = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
      String failure = "entry class cannot be instantiated: " + Lifecycle.describe(cause);
      return new Lifecycle.Outcome(Optional.empty(), Optional.of(failure), List.of());
    }
    GrantedContext context = new GrantedContext(paths(request, "readable"), paths(request, "writable"), log::println);
    return Lifecycle.run(capability, text(request, "input"), context, flag(request, "verify"), flag(request, "rollback"));
  }

  private static ObjectNode toJson(Lifecycle.Outcome outcome) {
    ObjectNode node = JSON.createObjectNode();
    node.put("output", outcome.output().orElse(null));
    node.put("failure", outcome.failure().orElse(null));
    ArrayNode hooks = node.putArray("hooks");
    for (HookOutcome hook : outcome.hooks()) {
      hooks.addObject().put("hook", hook.hook()).put("status", hook.status().name()).put("detail", hook.detail());
    }
    return node;
  }

  private static String text(JsonNode request, String field) {
    JsonNode value = request.get(field);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException("field '" + field + "' must be a string");
    }
    return value.asText();
  }

  private static boolean flag(JsonNode request, String field) {
    JsonNode value = request.get(field);
    if (value == null || !value.isBoolean()) {
      throw new IllegalArgumentException("field '" + field + "' must be a boolean");
    }
    return value.booleanValue();
  }

  private static List<Path> paths(JsonNode request, String field) {
    JsonNode value = request.get(field);
    if (value == null || !value.isArray()) {
      throw new IllegalArgumentException("field '" + field + "' must be an array of absolute paths");
    }
    List<Path> paths = new ArrayList<>();
    for (JsonNode item : value) {
      Path path = Path.of(item.asText());
      if (!item.isTextual() || !path.isAbsolute()) {
        throw new IllegalArgumentException("field '" + field + "' must hold absolute paths, not " + item);
      }
      paths.add(path);
    }
    return paths;
  }
}
