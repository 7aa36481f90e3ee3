package dev.capability.evaluator.internal;

import static dev.capability.evaluator.EvaluatorCodes.EVALUATION_CONFIG_INVALID;
import static dev.capability.evaluator.EvaluatorCodes.EVALUATION_CONFIG_UNTRUSTED;
import static dev.capability.evaluator.EvaluatorCodes.EVALUATION_POLICY_REFUSED;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.capability.evaluator.Candidate;
import dev.capability.evaluator.EvaluationCommand;
import dev.capability.evaluator.EvaluationConfig;
import dev.capability.evaluator.EvaluationException;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.ShellSyntaxException;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.core.CommandStrings;
import dev.capability.kernel.core.ExecutionPolicies;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Reads an evaluation configuration: the operator policy's file checks first, then the JSON, then
 * where each path lies. Every failure names the member (as a JSON pointer) or the check.
 */
public final class ConfigReader {
  private ConfigReader() {}

  /** How the file is named in the messages of the policy file's checks. */
  static final String WHAT = "evaluation configuration";

  /** The one version of the format. */
  static final int VERSION = 1;

  /** The longest timeout a command may ask for: a day. The policy's bound still applies. */
  static final long MAX_TIMEOUT_SECONDS = 86_400;

  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
      .build();

  static final Set<String> MEMBERS = Set.of("version", "repository", "policy", "outputDirectory", "candidates",
      "baseline", "commands", "backend", "requiredCapabilities");
  static final Set<String> REQUIRED = Set.of("version", "repository", "policy", "outputDirectory", "candidates", "commands");
  static final Set<String> CANDIDATE_MEMBERS = Set.of("name", "ref");
  static final Set<String> COMMAND_MEMBERS = Set.of("name", "argv", "command", "timeoutSeconds", "maxOutputBytes");

  /** See {@link dev.capability.evaluator.EvaluationConfigs#load}. */
  public static EvaluationConfig load(Path file) {
    String text = trustedText(file, null);
    JsonNode root = parse(text, file);
    object(root, "", MEMBERS, REQUIRED);
    JsonNode version = root.get("version");
    if (!version.isInt() || version.intValue() != VERSION) {
      throw invalid(file, "/version", "must be " + VERSION + ", was " + version);
    }
    Path repository = repository(file, root);
    if (!trustedText(file, repository).equals(text)) {
      throw new EvaluationException(EVALUATION_CONFIG_UNTRUSTED, "the " + WHAT + " file " + file + " changed while it was read");
    }
    Path output = absolute(file, root, "outputDirectory");
    if (output.startsWith(repository) || repository.startsWith(output)) {
      throw invalid(file, "/outputDirectory", "'" + output + "' must lie outside the repository '" + repository
          + "' and not contain it: a worktree inside the main working tree would change it");
    }
    if (file.startsWith(output)) {
      throw new EvaluationException(EVALUATION_CONFIG_UNTRUSTED, "the " + WHAT + " file " + file
          + " lies inside the output directory " + output + ", where the evaluation writes");
    }
    Path policy = absolute(file, root, "policy");
    if (policy.startsWith(output)) {
      throw invalid(file, "/policy", "the policy file '" + policy + "' lies inside the output directory '" + output
          + "', where the evaluation writes");
    }
    try {
      ExecutionPolicies.load(policy, repository);
    } catch (PolicyException e) {
      throw new EvaluationException(EVALUATION_POLICY_REFUSED, "the " + WHAT + " " + file + " at /policy: " + e.getMessage()
          + " (" + e.code() + ")", e);
    }
    List<Candidate> candidates = candidates(file, root.get("candidates"));
    String baseline = optionalText(file, root, "baseline");
    if (baseline != null && candidates.stream().noneMatch(c -> c.name().equals(baseline))) {
      throw invalid(file, "/baseline", "'" + baseline + "' names no candidate");
    }
    List<EvaluationCommand> commands = commands(file, root.get("commands"));
    String backend = optionalText(file, root, "backend");
    Set<IsolationCapability> capabilities = capabilities(file, root.get("requiredCapabilities"));
    String sha256 = "sha256:" + Sha256.hex(Sha256.newDigest().digest(text.getBytes(StandardCharsets.UTF_8)));
    return new EvaluationConfig(file, sha256, repository, policy, output, candidates, baseline, commands, backend, capabilities);
  }

  private static String trustedText(Path file, @Nullable Path repository) {
    try {
      return ExecutionPolicies.readOperatorFile(file, repository, WHAT);
    } catch (PolicyException e) {
      throw new EvaluationException(EVALUATION_CONFIG_UNTRUSTED, e.getMessage() + " (" + e.code() + ")", e);
    }
  }

  private static JsonNode parse(String text, Path file) {
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String position = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      throw new EvaluationException(EVALUATION_CONFIG_INVALID, "the " + WHAT + " " + file + " is not valid JSON" + position
          + ": " + e.getOriginalMessage(), e);
    }
    if (root == null || root.isMissingNode()) {
      throw new EvaluationException(EVALUATION_CONFIG_INVALID, "the " + WHAT + " " + file + " is empty");
    }
    return root;
  }

  private static Path repository(Path file, JsonNode root) {
    Path repository = absolute(file, root, "repository");
    Path real;
    try {
      real = repository.toRealPath();
    } catch (IOException e) {
      throw invalid(file, "/repository", "'" + repository + "' cannot be resolved: " + e);
    }
    if (!real.equals(repository)) {
      throw invalid(file, "/repository", "'" + repository + "' must be canonical, without symbolic links; its real path is '" + real + "'");
    }
    if (!Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS) || !Files.exists(real.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
      throw invalid(file, "/repository", "'" + repository + "' is not the top directory of a Git working tree (no .git in it)");
    }
    return real;
  }

  private static Path absolute(Path file, JsonNode root, String member) {
    String text = text(file, root.get(member), "/" + member);
    Path path;
    try {
      path = Path.of(text);
    } catch (InvalidPathException e) {
      throw invalid(file, "/" + member, "'" + text + "' is not a path: " + e.getReason());
    }
    if (!path.isAbsolute() || !path.normalize().equals(path)) {
      throw invalid(file, "/" + member, "'" + text + "' must be an absolute path without . or ..");
    }
    return path;
  }

  private static List<Candidate> candidates(Path file, JsonNode node) {
    if (!node.isArray() || node.isEmpty()) {
      throw invalid(file, "/candidates", "must be a non-empty array");
    }
    List<Candidate> candidates = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < node.size(); i++) {
      String pointer = "/candidates/" + i;
      JsonNode entry = node.get(i);
      String ref;
      String name;
      if (entry.isTextual()) {
        ref = entry.textValue();
        name = ref;
      } else {
        object(entry, pointer, CANDIDATE_MEMBERS, Set.of("ref"));
        ref = text(file, entry.get("ref"), pointer + "/ref");
        name = entry.has("name") ? text(file, entry.get("name"), pointer + "/name") : ref;
      }
      if (ref.isEmpty() || ref.startsWith("-") || ref.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
        throw invalid(file, pointer, "the ref '" + ref + "' must be non-empty, not start with '-' and hold no control character");
      }
      if (name.isBlank() || !names.add(name)) {
        throw invalid(file, pointer, "the candidate name '" + name + "' is blank or names another candidate too");
      }
      candidates.add(new Candidate(name, ref));
    }
    return candidates;
  }

  private static List<EvaluationCommand> commands(Path file, JsonNode node) {
    if (!node.isArray() || node.isEmpty()) {
      throw invalid(file, "/commands", "must be a non-empty array");
    }
    List<EvaluationCommand> commands = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < node.size(); i++) {
      String pointer = "/commands/" + i;
      JsonNode entry = node.get(i);
      object(entry, pointer, COMMAND_MEMBERS, Set.of());
      if (entry.has("argv") == entry.has("command")) {
        throw invalid(file, pointer, "give exactly one of \"argv\" (an array of strings) and \"command\" (a string split without a shell)");
      }
      List<String> argv;
      String shown;
      if (entry.has("argv")) {
        argv = argv(file, entry.get("argv"), pointer + "/argv");
        shown = String.join(" ", argv);
      } else {
        shown = text(file, entry.get("command"), pointer + "/command");
        try {
          argv = CommandStrings.split(shown);
        } catch (ShellSyntaxException e) {
          throw invalid(file, pointer + "/command", "the command \"" + shown + "\" is refused (" + e.code() + "): " + e.getMessage()
              + "; evaluation commands run without a shell");
        }
        if (argv.isEmpty()) {
          throw invalid(file, pointer + "/command", "the command is empty");
        }
      }
      String name = entry.has("name") ? text(file, entry.get("name"), pointer + "/name") : shown;
      if (name.isBlank() || !names.add(name)) {
        throw invalid(file, pointer, "the command name '" + name + "' is blank or names another command too");
      }
      Duration timeout = null;
      if (entry.has("timeoutSeconds")) {
        JsonNode seconds = entry.get("timeoutSeconds");
        if (!seconds.canConvertToLong() || !seconds.isIntegralNumber() || seconds.longValue() < 1
            || seconds.longValue() > MAX_TIMEOUT_SECONDS) {
          throw invalid(file, pointer + "/timeoutSeconds", "must be a whole number of seconds from 1 to " + MAX_TIMEOUT_SECONDS);
        }
        timeout = Duration.ofSeconds(seconds.longValue());
      }
      Long maxOutputBytes = null;
      if (entry.has("maxOutputBytes")) {
        JsonNode bytes = entry.get("maxOutputBytes");
        if (!bytes.isIntegralNumber() || !bytes.canConvertToLong() || bytes.longValue() < 1) {
          throw invalid(file, pointer + "/maxOutputBytes", "must be a positive whole number of bytes");
        }
        maxOutputBytes = bytes.longValue();
      }
      commands.add(new EvaluationCommand(name, argv, timeout, maxOutputBytes));
    }
    return commands;
  }

  private static List<String> argv(Path file, JsonNode node, String pointer) {
    if (!node.isArray() || node.isEmpty()) {
      throw invalid(file, pointer, "must be a non-empty array of strings");
    }
    List<String> argv = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      String arg = text(file, node.get(i), pointer + "/" + i);
      if (arg.indexOf('\0') >= 0) {
        throw invalid(file, pointer + "/" + i, "holds a NUL character");
      }
      argv.add(arg);
    }
    if (argv.get(0).isEmpty()) {
      throw invalid(file, pointer + "/0", "the executable must not be empty");
    }
    return argv;
  }

  private static Set<IsolationCapability> capabilities(Path file, @Nullable JsonNode node) {
    Set<IsolationCapability> capabilities = EnumSet.noneOf(IsolationCapability.class);
    if (node == null) {
      return capabilities;
    }
    if (!node.isArray()) {
      throw invalid(file, "/requiredCapabilities", "must be an array of capability names");
    }
    for (int i = 0; i < node.size(); i++) {
      String name = text(file, node.get(i), "/requiredCapabilities/" + i);
      try {
        capabilities.add(IsolationCapability.valueOf(name));
      } catch (IllegalArgumentException e) {
        throw invalid(file, "/requiredCapabilities/" + i, "'" + name + "' is no isolation capability; known: "
            + new TreeSet<>(EnumSet.allOf(IsolationCapability.class).stream().map(Enum::name).toList()));
      }
    }
    return capabilities;
  }

  private static @Nullable String optionalText(Path file, JsonNode root, String member) {
    return root.has(member) ? text(file, root.get(member), "/" + member) : null;
  }

  private static String text(Path file, @Nullable JsonNode node, String pointer) {
    if (node == null || !node.isTextual()) {
      throw invalid(file, pointer, "must be a string");
    }
    return node.textValue();
  }

  private static void object(JsonNode node, String pointer, Set<String> members, Set<String> required) {
    if (!node.isObject()) {
      throw new EvaluationException(EVALUATION_CONFIG_INVALID, "the " + WHAT + " at " + where(pointer) + ": expected an object");
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!members.contains(name)) {
        throw new EvaluationException(EVALUATION_CONFIG_INVALID, "the " + WHAT + " at " + where(pointer) + ": unknown member \""
            + name + "\"; known: " + new TreeSet<>(members));
      }
    }
    for (String name : new TreeSet<>(required)) {
      if (!node.has(name)) {
        throw new EvaluationException(EVALUATION_CONFIG_INVALID, "the " + WHAT + " at " + where(pointer) + ": missing member \""
            + name + "\"");
      }
    }
  }

  private static String where(String pointer) {
    return pointer.isEmpty() ? "the top level" : pointer;
  }

  private static EvaluationException invalid(Path file, String pointer, String message) {
    return new EvaluationException(EVALUATION_CONFIG_INVALID, "the " + WHAT + " " + file + " at " + where(pointer) + ": " + message);
  }
}
