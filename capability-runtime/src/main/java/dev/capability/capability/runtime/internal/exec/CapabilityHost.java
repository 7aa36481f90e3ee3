package dev.capability.capability.runtime.internal.exec;

import dev.capability.capability.api.Capability;
import dev.capability.capability.runtime.HookOutcome;
import dev.capability.capability.runtime.internal.manifest.Integrity;
import dev.capability.linux.SeccompException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The main of the child JVM that runs one capability. It reads one {@link HostRequest} on standard
 * input, checks the module bytes against the integrity again, defines the classes from those bytes,
 * runs the lifecycle and writes one JSON response on standard output: {@code output} (or null),
 * {@code failure} (or null) and {@code hooks}. Unless the request says the capability may start
 * programs, it first makes this JVM unable to ({@link ProgramStarts}), before any class of the
 * capability is defined; when it cannot, it refuses the request. Everything the capability prints,
 * to either stream, goes to standard error, the run's log. Exit status 0 means a response was
 * written (the capability may still have failed); 2 means the request was refused.
 *
 * <p>It loads no JSON library, and as few classes as it can: the child JVM's start-up is most of a
 * run's cost.
 */
public final class CapabilityHost {
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
    try {
      byte[] bytes = in.readNBytes(HostRequest.MAX_BYTES + 1);
      HostRequest request = HostRequest.decode(bytes);
      Path module = Path.of(request.module());
      byte[] jar = Files.readAllBytes(module);
      if (!Integrity.matches(request.integrity(), jar)) {
        log.println("capability-host: module " + module + " does not match its integrity");
        return 2;
      }
      if (!request.startsPrograms()) {
        try {
          ProgramStarts.forbid();
        } catch (SeccompException e) {
          log.println("capability-host: cannot take the power to start programs from this JVM, so the capability does not run: "
              + e.code() + ": " + e.getMessage());
          return 2;
        } catch (RuntimeException | LinkageError e) {
          log.println("capability-host: cannot take the power to start programs from this JVM, so the capability does not run: " + e);
          return 2;
        }
      }
      Lifecycle.Outcome outcome = runCapability(request, jar, log);
      response.write(toJson(outcome).getBytes(StandardCharsets.UTF_8));
      response.flush();
      return 0;
    } catch (IOException | IllegalArgumentException e) {
      log.println("capability-host: bad request: " + e.getMessage());
      return 2;
    }
  }

  private static Lifecycle.Outcome runCapability(HostRequest request, byte[] jar, PrintStream log) {
    ModuleClassLoader loader = new ModuleClassLoader("capability", jar, Capability.class.getClassLoader());
    Capability capability;
    try {
      capability = Class.forName(request.entry(), true, loader).asSubclass(Capability.class).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      Throwable cause = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
      String failure = "entry class cannot be instantiated: " + Lifecycle.describe(cause);
      return new Lifecycle.Outcome(Optional.empty(), Optional.of(failure), List.of());
    }
    GrantedContext context = new GrantedContext(request.readable(), request.writable(), log::println);
    return Lifecycle.run(capability, request.input(), context, request.verify(), request.rollback());
  }

  static String toJson(Lifecycle.Outcome outcome) {
    StringBuilder json = new StringBuilder("{\"output\":");
    JsonText.appendStringOrNull(json, outcome.output());
    json.append(",\"failure\":");
    JsonText.appendStringOrNull(json, outcome.failure());
    json.append(",\"hooks\":[");
    for (int i = 0; i < outcome.hooks().size(); i++) {
      HookOutcome hook = outcome.hooks().get(i);
      json.append(i == 0 ? "{\"hook\":" : ",{\"hook\":");
      JsonText.appendString(json, hook.hook());
      json.append(",\"status\":");
      JsonText.appendString(json, hook.status().name());
      json.append(",\"detail\":");
      JsonText.appendString(json, hook.detail());
      json.append('}');
    }
    return json.append("]}").toString();
  }
}
