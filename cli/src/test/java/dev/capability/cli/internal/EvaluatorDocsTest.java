package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.evaluator.Candidate;
import dev.capability.evaluator.EvaluationCommand;
import dev.capability.evaluator.EvaluationConfig;
import dev.capability.evaluator.EvaluationConfigs;
import dev.capability.testing.Git;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/evaluator.md quotes {@code examples/evaluator/evaluation.json} exactly, and that example is
 * a configuration the evaluator loads, whose commands the policy it is paired with allows; so the
 * documented example cannot rot.
 */
class EvaluatorDocsTest {
  private static final String EXAMPLE = "examples/evaluator/evaluation.json";
  /** {@code <!-- excerpt: FILE -->}, then a fenced block. */
  private static final Pattern QUOTE = Pattern.compile("<!-- excerpt: (\\S+) -->\n```[a-z]*\n(.*?)```\n", Pattern.DOTALL);

  @TempDir Path tmp;

  @Test
  void thePageQuotesTheExampleExactly() throws IOException {
    Path root = DocumentedCommandsTest.root();
    Matcher quote = QUOTE.matcher(Files.readString(root.resolve("docs/evaluator.md")));
    List<String> quoted = new ArrayList<>();
    while (quote.find()) {
      quoted.add(quote.group(1));
      assertThat(quote.group(2)).as("the block quoting %s", quote.group(1)).isEqualTo(Files.readString(root.resolve(quote.group(1))));
    }
    assertThat(quoted).containsExactly(EXAMPLE);
  }

  @Test
  void theExampleLoadsAndTheShippedToolchainsPolicyAllowsItsCommands() throws Exception {
    Path root = DocumentedCommandsTest.root();
    Path repository = Git.initWithCommit(tmp.resolve("parser"));
    Path etc = Files.createDirectories(tmp.resolve("etc"));
    Files.setPosixFilePermissions(etc, PosixFilePermissions.fromString("rwx------"));
    Path policy = etc.resolve("toolchains.json");
    EvaluationFixture.write(policy, Files.readString(root.resolve("examples/policies/toolchains.json")));
    Path output = tmp.toRealPath().resolve("evaluations");
    String example = Files.readString(root.resolve(EXAMPLE));
    Path config = etc.resolve("evaluation.json");
    EvaluationFixture.write(config, example
        .replace("\"/srv/src/parser\"", "\"" + repository + "\"")
        .replace("\"/etc/capability/toolchains.json\"", "\"" + policy.toRealPath() + "\"")
        .replace("\"/srv/evaluations/parser\"", "\"" + output + "\""));

    EvaluationConfig loaded = EvaluationConfigs.load(config.toRealPath());

    assertThat(loaded.repository()).isEqualTo(repository);
    assertThat(loaded.candidates()).extracting(Candidate::name).containsExactly("main", "agent-a", "agent-b");
    assertThat(loaded.baseline()).isEqualTo("main");
    assertThat(loaded.commands()).extracting(EvaluationCommand::argv)
        .containsExactly(List.of("python3", "-m", "pytest", "-q", "tests/test_parser.py"), List.of("make", "test"));
    for (EvaluationCommand command : loaded.commands()) {
      List<String> args = new ArrayList<>(List.of("check", "--policy", policy.toRealPath().toString(), "--repo", repository.toString(), "--"));
      args.addAll(command.argv());
      CliRunner.Outcome check = CliRunner.run(EvaluationFixture.environment(), "", args.toArray(String[]::new));
      assertThat(check.exitCode()).as("the policy allows %s: %s%s", command.argv(), check.out(), check.err()).isEqualTo(ExitCodes.OK);
    }
  }
}
