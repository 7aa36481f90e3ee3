package dev.capability.mcp.internal;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.store.PhaseRecord;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.kernel.core.WorkingTrees;
import dev.capability.mcp.EvidenceAccess;
import dev.capability.mcp.McpCodes;
import dev.capability.workflow.Phase;
import dev.capability.workflow.ProjectContract;
import dev.capability.workflow.WorkPlanRevision;
import dev.capability.workflow.WorkPlans;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * {@code apply_patch}: a unified diff applied to a repository only inside the active phase (and
 * the open correction), by {@code git} run through the kernel. Before anything runs, every path the
 * patch names is checked: inside the repository, not {@code .git/} or {@code .capability/}, not
 * through or onto a symbolic link, and writable under operator ∩ contract ∩ phase (∩ correction);
 * then {@code git apply --check} (through the kernel, the patch on stdin) must accept it, and the
 * paths git itself reads from it are checked the same way. Only then does {@code git apply} run,
 * and the patch's digest and paths are recorded as a {@value #PATCH_APPLIED} phase record.
 */
final class PatchTool {
  /** The phase event of an applied patch; its body holds the patch's SHA-256, size and paths. */
  static final String PATCH_APPLIED = "PATCH_APPLIED";

  /** The largest patch accepted, in UTF-8 bytes. */
  static final int MAX_PATCH_BYTES = 4 << 20;

  private static final Pattern FILE_HEADER = Pattern.compile("^(?:---|\\+\\+\\+) (.*)$");
  private static final Pattern NAMED = Pattern.compile("^(?:rename from|rename to|copy from|copy to) (.*)$");
  private static final Pattern MODE = Pattern.compile("^(?:new file mode|deleted file mode|old mode|new mode|index [0-9a-fA-F]+\\.\\.[0-9a-fA-F]+) ([0-7]+)$");
  private static final Pattern HUNK = Pattern.compile("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@.*$");
  private static final String SYMLINK_MODE = "120000";

  private final EvidenceAccess evidence;
  private final Workspace workspace;
  private final BiFunction<Path, EvidenceAccess.Store, CommandKernel> kernels;

  /** @param kernels a kernel for a repository that records every launch in the given store */
  PatchTool(EvidenceAccess evidence, Workspace workspace, BiFunction<Path, EvidenceAccess.Store, CommandKernel> kernels) {
    this.evidence = evidence;
    this.workspace = workspace;
    this.kernels = kernels;
  }

  SyncToolSpecification spec(PlanTools.Registrar r) {
    return r.tool("apply_patch", "Apply a patch",
        "Apply a unified diff (git format, paths with a/ and b/ prefixes) to a repository inside the active phase's write scopes (and the open correction's). "
            + "Refused before anything changes: no active phase (" + McpCodes.NO_ACTIVE_PHASE + "), a path outside the repository (" + McpCodes.PATCH_INVALID
            + "), .git/ or .capability/ (" + McpCodes.PROTECTED_PATH + "), a symbolic link (" + McpCodes.PATCH_SYMLINK + "), a path outside the scope ("
            + McpCodes.PATCH_OUTSIDE_SCOPE + "), a patch git apply --check refuses (" + McpCodes.PATCH_CHECK_FAILED + "). git runs through the kernel; the patch is recorded.",
        "\"repository\": {\"type\": \"string\", \"description\": \"The repository: an absolute path inside the operator's allowed roots.\"},"
            + "\"patch\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"The unified diff.\"}",
        List.of("repository", "patch"), new ToolAnnotations(null, false, true, false, false, false), this::apply);
  }

  private Map<String, @Nullable Object> apply(Arguments arguments) {
    Path repository = workspace.repository(arguments.string("repository"));
    byte[] patch = arguments.string("patch").getBytes(StandardCharsets.UTF_8);
    if (patch.length == 0 || patch.length > MAX_PATCH_BYTES) {
      throw new CapabilityException(McpCodes.PATCH_INVALID, "the patch must hold 1 to " + MAX_PATCH_BYTES + " bytes, was " + patch.length);
    }
    try (EvidenceAccess.PlanStore store = evidence.openPlans(repository)) {
      CommandKernel kernel = kernels.apply(repository, store);
      WorkPlans plans = WorkPlans.builder(kernel, store, repository).build();
      Phase phase = plans.activePhase().orElseThrow(() -> new CapabilityException(McpCodes.NO_ACTIVE_PHASE,
          "apply_patch needs an active phase: save a work plan (save_plan) with a phase left to work"));
      WorkPlanRevision revision = plans.current().orElseThrow();
      List<String> protectedPaths = plans.contract().map(ProjectContract::protectedPaths).orElse(List.of());
      List<AuthorityLayer> layers = PlanTools.activeLayers(kernel, store, repository);

      List<String> named = namedPaths(new String(patch, StandardCharsets.UTF_8));
      requireWritable(kernel, layers, protectedPaths, repository, named);
      ExecutionResult check = git(kernel, repository, layers, patch, "apply", "--check", "--numstat", "-z");
      if (!check.succeeded()) {
        throw new CapabilityException(McpCodes.PATCH_CHECK_FAILED, "git apply --check refused the patch; nothing was changed: "
            + excerpt(check));
      }
      TreeSet<String> paths = new TreeSet<>(named);
      paths.addAll(numstatPaths(new String(check.stdout().bytes(), StandardCharsets.UTF_8)));
      requireWritable(kernel, layers, protectedPaths, repository, List.copyOf(paths));
      ExecutionResult applied = git(kernel, repository, layers, patch, "apply");
      if (!applied.succeeded()) {
        throw new CapabilityException(McpCodes.PATCH_APPLY_FAILED, "git apply failed after its check passed: " + excerpt(applied));
      }
      Map<String, @Nullable Object> body = new LinkedHashMap<>();
      body.put("sha256", sha256(patch));
      body.put("bytes", patch.length);
      body.put("paths", List.copyOf(paths));
      body.put("violations", applied.attestation().violations().stream().map(v -> v.path()).toList());
      long sequence = store.recordPhase(new PhaseRecord(revision.plan().id(), revision.revision(), phase.id(), PATCH_APPLIED, List.of(), body));
      Map<String, @Nullable Object> out = new LinkedHashMap<>(body);
      out.put("phaseId", phase.id());
      out.put("sequence", sequence);
      return out;
    }
  }

  private static ExecutionResult git(CommandKernel kernel, Path repository, List<AuthorityLayer> layers, byte[] patch, String... arguments) {
    List<String> argv = new ArrayList<>();
    argv.add("git");
    argv.addAll(List.of(arguments));
    ExecutionRequest.Builder request = ExecutionRequest.argv(argv).repository(repository).stdin(patch);
    layers.forEach(request::layer);
    ExecutionResult result = kernel.execute(request.build());
    if (!result.decision().allowed()) {
      Decision d = result.decision();
      throw new CapabilityException(d.code(), "the operator policy does not let apply_patch run " + argv + ": " + d.message());
    }
    return result;
  }

  private static String excerpt(ExecutionResult result) {
    String stderr = new String(result.stderr().bytes(), StandardCharsets.UTF_8).strip();
    String reason = stderr.isEmpty() ? result.status().name() : stderr;
    return reason.length() > 2_000 ? reason.substring(0, 2_000) + "..." : reason;
  }

  /**
   * The paths the patch's headers name ({@code ---}/{@code +++} with their first component
   * stripped, as {@code git apply -p1} does; rename and copy lines as they stand), refusing any
   * header that sets the symbolic-link mode.
   */
  static List<String> namedPaths(String patch) {
    TreeSet<String> paths = new TreeSet<>();
    long oldLeft = 0;
    long newLeft = 0;
    for (String line : patch.split("\n", -1)) {
      String text = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
      if (oldLeft > 0 || newLeft > 0) {
        // Inside a hunk a removed "-- x" reads "--- x": count the hunk's lines rather than guess.
        if (text.startsWith(" ") || text.isEmpty()) {
          oldLeft--;
          newLeft--;
        } else if (text.startsWith("-")) {
          oldLeft--;
        } else if (text.startsWith("+")) {
          newLeft--;
        } else if (!text.startsWith("\\")) {
          throw new CapabilityException(McpCodes.PATCH_INVALID, "the patch's hunk ends early at '" + text + "'");
        }
        continue;
      }
      Matcher hunk = HUNK.matcher(text);
      if (hunk.matches()) {
        oldLeft = hunk.group(2) == null ? 1 : Integer.parseInt(hunk.group(2));
        newLeft = hunk.group(4) == null ? 1 : Integer.parseInt(hunk.group(4));
        continue;
      }
      Matcher mode = MODE.matcher(text);
      if (mode.matches() && mode.group(1).equals(SYMLINK_MODE)) {
        throw new CapabilityException(McpCodes.PATCH_SYMLINK, "the patch creates, changes or deletes a symbolic link: '" + text + "'");
      }
      Matcher header = FILE_HEADER.matcher(text);
      if (header.matches()) {
        String name = unquoted(header.group(1).split("\t", 2)[0]);
        if (!name.equals("/dev/null")) {
          int slash = name.indexOf('/');
          if (slash < 0) {
            throw new CapabilityException(McpCodes.PATCH_INVALID, "the patch header '" + text + "' names no a/ or b/ path");
          }
          paths.add(name.substring(slash + 1));
        }
        continue;
      }
      Matcher renamed = NAMED.matcher(text);
      if (renamed.matches()) {
        paths.add(unquoted(renamed.group(1)));
      }
    }
    if (paths.isEmpty()) {
      throw new CapabilityException(McpCodes.PATCH_INVALID, "the patch names no file: give a unified diff with ---/+++ headers");
    }
    return List.copyOf(paths);
  }

  private static String unquoted(String name) {
    if (name.startsWith("\"")) {
      throw new CapabilityException(McpCodes.PATCH_INVALID, "the patch names a quoted path (" + name
          + "); apply_patch takes only paths git writes unquoted");
    }
    return name;
  }

  /** The paths in {@code git apply --numstat -z} output: {@code added TAB deleted TAB path NUL}, or for a rename {@code ... TAB NUL old NUL new NUL}. */
  static List<String> numstatPaths(String numstat) {
    List<String> paths = new ArrayList<>();
    String[] fields = numstat.split("\0", -1);
    for (int i = 0; i < fields.length; i++) {
      String field = fields[i];
      if (field.isEmpty()) {
        continue;
      }
      String[] parts = field.split("\t", 3);
      if (parts.length != 3) {
        throw new CapabilityException(McpCodes.PATCH_INVALID, "git apply --numstat wrote an unexpected line: " + field);
      }
      if (!parts[2].isEmpty()) {
        paths.add(parts[2]);
      } else if (i + 2 < fields.length) {
        paths.add(fields[++i]);
        paths.add(fields[++i]);
      }
    }
    return paths;
  }

  private static void requireWritable(CommandKernel kernel, List<AuthorityLayer> layers, List<String> protectedPaths, Path repository,
      List<String> paths) {
    for (String path : paths) {
      requireInside(repository, path);
    }
    Map<String, Decision> refused = WorkingTrees.refusedWrites(kernel.policy(), layers, protectedPaths, repository, paths);
    if (!refused.isEmpty()) {
      Map.Entry<String, Decision> first = refused.entrySet().iterator().next();
      throw new CapabilityException(McpCodes.PATCH_OUTSIDE_SCOPE, "the patch writes '" + first.getKey() + "', which the "
          + first.getValue().layer() + " layer does not allow (" + first.getValue().rule() + ": " + first.getValue().message()
          + "); nothing was changed" + (refused.size() > 1 ? "; also refused: " + List.copyOf(refused.keySet()).subList(1, refused.size()) : ""));
    }
  }

  /** Refuses a path that leaves the repository, is protected, or runs through or onto a symbolic link. */
  static void requireInside(Path repository, String path) {
    if (path.isEmpty() || path.startsWith("/") || path.indexOf('\0') >= 0) {
      throw new CapabilityException(McpCodes.PATCH_INVALID, "the patch names '" + path + "', which is not a path inside the repository");
    }
    String[] components = path.split("/", -1);
    for (int i = 0; i < components.length; i++) {
      String c = components[i];
      if (c.isEmpty() || c.equals(".") || c.equals("..")) {
        throw new CapabilityException(McpCodes.PATCH_INVALID, "the patch names '" + path + "', which leaves the repository or is not normalized");
      }
      String lower = c.toLowerCase(Locale.ROOT);
      if (lower.equals(".git") || (i == 0 && lower.equals(".capability"))) {
        throw new CapabilityException(McpCodes.PROTECTED_PATH, "the patch touches '" + path + "': .git/ and .capability/ are never patched");
      }
    }
    Path at = repository;
    for (String c : components) {
      at = at.resolve(c);
      if (Files.isSymbolicLink(at)) {
        throw new CapabilityException(McpCodes.PATCH_SYMLINK, "the patch touches '" + path + "' through or onto the symbolic link '"
            + repository.relativize(at) + "'");
      }
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
