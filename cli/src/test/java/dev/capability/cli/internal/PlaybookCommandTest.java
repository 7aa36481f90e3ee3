package dev.capability.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.ledger.LedgerCodes;
import dev.capability.ledger.SqlitePlaybook;
import dev.capability.workflow.Playbook;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code capability playbook enable|disable|hints}, on a real playbook file under a test's HOME. */
class PlaybookCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PLAN = "{\"version\": 1, \"id\": \"calc\", \"phases\": ["
      + "{\"id\": \"impl\", \"goal\": \"g\", \"writeScopes\": [\"src/main/**/*.java\"], \"acceptance\": [\"javac -d target Calc.java\"]},"
      + "{\"id\": \"docs\", \"goal\": \"g\", \"writeScopes\": [\"docs/*.md\"], \"acceptance\": [\"cat README.md\"]}]}";

  @TempDir Path tmp;
  private Path home;
  private Map<String, String> environment;

  @BeforeEach
  void setUp() throws Exception {
    home = Files.createDirectory(tmp.resolve("home"));
    environment = Map.of("HOME", home.toString());
  }

  private JsonNode json(String... args) throws Exception {
    CliRunner.Outcome outcome = CliRunner.run(environment, "", args);
    assertThat(outcome.exitCode()).as(outcome.err() + outcome.out()).isZero();
    return JSON.readTree(outcome.out());
  }

  @Test
  void hintsOfADisabledPlaybookAreNoneAndCreateNothing() throws Exception {
    Path plan = Files.writeString(tmp.resolve("plan.json"), PLAN);

    JsonNode hints = json("playbook", "hints", plan.toString(), "--json");

    assertThat(hints.get("enabled").asBoolean()).isFalse();
    assertThat(hints.get("hints")).isEmpty();
    try (var listing = Files.list(home)) {
      assertThat(listing).isEmpty();
    }
    CliRunner.Outcome text = CliRunner.run(environment, "", "playbook", "hints");
    assertThat(text.exitCode()).isZero();
    assertThat(text.err()).contains("disabled").contains("capability playbook enable");
  }

  @Test
  void enableHintsAndDisable() throws Exception {
    JsonNode enabled = json("playbook", "enable", "--json");
    Path db = home.resolve(".capability/playbook.db");
    assertThat(enabled.get("path").asText()).isEqualTo(db.toString());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(db, LinkOption.NOFOLLOW_LINKS))).isEqualTo("rw-------");
    try (SqlitePlaybook store = SqlitePlaybook.openIfEnabled(home).orElseThrow()) {
      Playbook.using(store).recordCorrection("misread-api", "api-behaviour", List.of("src/main/java/Calc.java"));
    }
    Path plan = Files.writeString(tmp.resolve("plan.json"), PLAN);

    JsonNode hints = json("playbook", "hints", plan.toString(), "--json");
    assertThat(hints.get("enabled").asBoolean()).isTrue();
    assertThat(hints.get("hints")).singleElement().satisfies(hint -> {
      assertThat(hint.get("phase").asText()).isEqualTo("impl");
      assertThat(hint.get("pointer").asText()).isEqualTo("/phases/0/writeScopes");
      assertThat(hint.get("rootCause").asText()).isEqualTo("misread-api");
      assertThat(hint.get("languages").toString()).isEqualTo("[\"java\"]");
      assertThat(hint.get("occurrences").asLong()).isEqualTo(1);
      assertThat(hint.get("message").asText()).contains("watch out");
    });
    assertThat(json("playbook", "hints", "--json").get("patterns")).hasSize(1);
    assertThat(CliRunner.run(environment, "", "playbook", "hints").out()).isEqualTo("1\tmisread-api\tapi-behaviour\tjava\tsource\n");
    CliRunner.Outcome text = CliRunner.run(environment, "", "playbook", "hints", plan.toString());
    assertThat(text.out()).startsWith("watch out in phase impl");

    JsonNode disabled = json("playbook", "disable", "--json");
    assertThat(disabled.get("deleted").asBoolean()).isTrue();
    assertThat(db).doesNotExist();
    assertThat(json("playbook", "hints", plan.toString(), "--json").get("enabled").asBoolean()).isFalse();
  }

  @Test
  void aSymlinkedLocationIsRefusedWithItsCode() throws Exception {
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Files.createSymbolicLink(home.resolve(".capability"), elsewhere);

    CliRunner.Outcome outcome = CliRunner.run(environment, "", "playbook", "enable", "--json");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(JSON.readTree(outcome.out()).get("error").get("code").asText()).isEqualTo(LedgerCodes.PLAYBOOK_LOCATION_UNSAFE);
    try (var listing = Files.list(elsewhere)) {
      assertThat(listing).isEmpty();
    }
  }

  @Test
  void anUnreadablePlanIsRefusedWithItsCode() throws Exception {
    CliRunner.Outcome outcome = CliRunner.run(environment, "", "playbook", "hints", tmp.resolve("missing.json").toString(), "--json");

    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
    assertThat(JSON.readTree(outcome.out()).get("error").get("code").asText()).isEqualTo(CliCodes.INPUT_UNREADABLE);
  }
}
