package dev.capability.integrations.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.integrations.tools.AgentToolCodes;
import dev.capability.integrations.tools.AgentTools;
import dev.capability.kernel.api.CapturedOutput;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.core.CommandKernel;
import dev.langchain4j.code.CodeExecutionEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * LangChain4j's {@link CodeExecutionEngine} on the kernel: the code is the standard input of an
 * interpreter command the host names (for example {@code python3 -}), run through the host's
 * kernel in the repository, under the operator policy, in the strongest sandbox available.
 *
 * <p>What this bounds, honestly: the policy decides the interpreter's argv, which the model never
 * chooses, and the sandbox bounds what the code can do (the policy's network mode, write scopes,
 * environment, time, memory and output). The policy cannot read the code: allowing an interpreter
 * grants any program that interpreter runs within those bounds. Use a policy written for the
 * engine (no network, writes to a scratch scope only), not the one for trusted build commands.
 *
 * <p>{@link #execute(String)} returns the standard output when the code exits 0; otherwise a JSON
 * object the model can read: a denial ({@code "status": "DENIED"} with layer, rule, code and
 * reason), or the status, exit code, output and failure of the run. Code larger than {@link
 * AgentTools#MAX_ARGUMENTS_BYTES} is refused with {@link AgentToolCodes#ARGUMENTS_TOO_LARGE}
 * before anything runs. It never throws for the code or a refusal.
 */
public final class KernelCodeExecutionEngine implements CodeExecutionEngine {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final CommandKernel kernel;
  private final Path repository;
  private final List<String> interpreter;

  private KernelCodeExecutionEngine(CommandKernel kernel, Path repository, List<String> interpreter) {
    this.kernel = kernel;
    this.repository = repository;
    this.interpreter = interpreter;
  }

  /**
   * An engine running code as the standard input of {@code interpreter} in {@code repository}.
   *
   * @param kernel the host's kernel, which it keeps open and closes
   * @param interpreter the interpreter's argv, reading the program from standard input ({@code
   *     python3 -}, {@code node -}); the operator policy must allow exactly this command
   */
  public static KernelCodeExecutionEngine of(CommandKernel kernel, Path repository, List<String> interpreter) {
    Objects.requireNonNull(kernel, "kernel");
    Objects.requireNonNull(repository, "repository");
    if (interpreter.isEmpty()) {
      throw new IllegalArgumentException("the interpreter's argv is empty");
    }
    return new KernelCodeExecutionEngine(kernel, repository.toAbsolutePath().normalize(), List.copyOf(interpreter));
  }

  @Override
  public String execute(@Nullable String code) {
    byte[] program = (code == null ? "" : code).getBytes(StandardCharsets.UTF_8);
    if (program.length > AgentTools.MAX_ARGUMENTS_BYTES) {
      return json(Map.of("error", Map.of("code", AgentToolCodes.ARGUMENTS_TOO_LARGE,
          "message", "the code has " + program.length + " bytes; the limit is " + AgentTools.MAX_ARGUMENTS_BYTES)));
    }
    ExecutionResult result = kernel.execute(ExecutionRequest.argv(interpreter).repository(repository).stdin(program).build());
    if (result.status() == ExecutionStatus.COMPLETED && result.exitCode().orElse(-1) == 0) {
      return text(result.stdout());
    }
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("status", result.status().name());
    if (result.status() == ExecutionStatus.DENIED) {
      Decision d = result.decision();
      out.put("code", d.code());
      out.put("layer", d.layer());
      out.put("rule", d.rule());
      out.put("reason", d.message());
      return json(out);
    }
    out.put("exitCode", result.exitCode().isPresent() ? result.exitCode().getAsInt() : null);
    out.put("stdout", text(result.stdout()));
    out.put("stderr", text(result.stderr()));
    out.put("failure", result.failureMessage());
    return json(out);
  }

  private static String text(CapturedOutput output) {
    byte[] bytes = output.bytes();
    return new String(bytes.length > AgentTools.MAX_RETURNED_OUTPUT ? Arrays.copyOf(bytes, AgentTools.MAX_RETURNED_OUTPUT) : bytes,
        StandardCharsets.UTF_8);
  }

  private static String json(Map<String, ?> value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a result is not JSON", e);
    }
  }
}
