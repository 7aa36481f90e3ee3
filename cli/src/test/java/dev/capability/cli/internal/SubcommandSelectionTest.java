package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which subcommands a command line builds: the one it names, else all of them. */
class SubcommandSelectionTest {
  private static final int ALL = CliRunner.commandLine().getSubcommands().size();

  @Test
  void theFirstArgumentThatIsNotARootFlagNamesTheOnlySubcommandBuilt() {
    assertThat(CapabilityCli.named("parse", "ls -l")).containsExactly("parse");
    assertThat(CapabilityCli.named("--quiet", "--raw", "check", "--", "git", "status")).containsExactly("check");
    assertThat(CapabilityCli.named("ledger", "list", "--json")).containsExactly("ledger");
  }

  @Test
  void helpCompletionAnUnknownNameOrNoneBuildTheWholeTree() {
    assertThat(ALL).isEqualTo(22);
    assertThat(CapabilityCli.named("help", "parse")).hasSize(ALL);
    assertThat(CapabilityCli.named("completion", "bash")).hasSize(ALL);
    assertThat(CapabilityCli.named("pars", "ls")).hasSize(ALL);
    assertThat(CapabilityCli.named("--version")).hasSize(ALL);
    assertThat(CapabilityCli.named("--", "parse")).hasSize(ALL);
  }

  @Test
  void aMistypedSubcommandIsStillAnsweredWithTheSuggestionsOfTheWholeTree() {
    CliRunner.Outcome outcome = CliRunner.run("pars", "ls");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(outcome.err()).contains("pars").contains("parse");
  }
}
