package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The training commands take the path the user's command takes (an archive trained on an error
 * path would hold the wrong classes), and the training leaves nothing behind.
 */
class ClassDataTrainingTest {
  @TempDir Path home;

  @ParameterizedTest
  @CsvSource({"parse, 0", "check, 1", "help, 0", "completion, 0", "policy, 0"})
  void eachTrainingCommandRunsToItsOrdinaryOutcome(String command, int exitCode) throws Exception {
    Files.createDirectory(home.resolve("capability"));
    Files.writeString(home.resolve("capability/policy.json"), PolicyCommand.template("readonly-dev"));

    for (List<String> commandLine : ClassDataTraining.commandLines(command)) {
      assertThat(commandLine.get(0)).isEqualTo(command);
      assertThat(ClassDataTraining.run(home, commandLine)).as(commandLine.toString()).isEqualTo(exitCode);
    }
  }

  @Test
  void theTrainingRemovesItsTemporaryDirectory() throws Exception {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    List<Path> before;
    try (var listing = Files.list(tmp)) {
      before = listing.filter(path -> path.getFileName().toString().startsWith("capability-cds-training")).toList();
    }

    ClassDataTraining.main(new String[] {"check"});

    try (var listing = Files.list(tmp)) {
      assertThat(listing.filter(path -> path.getFileName().toString().startsWith("capability-cds-training"))).containsExactlyInAnyOrderElementsOf(before);
    }
  }

  @Test
  void refusesACommandItHasNoTrainingFor() {
    assertThatThrownBy(() -> ClassDataTraining.commandLines("exec")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exec");
  }
}
