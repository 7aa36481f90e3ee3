package dev.capability.workflow;

import static dev.capability.workflow.Fixtures.CONTRACT;
import static dev.capability.workflow.Fixtures.TWO_PHASES;
import static dev.capability.workflow.Fixtures.phase;
import static dev.capability.workflow.Fixtures.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.store.PlaybookEntry;
import dev.capability.kernel.api.store.PlaybookPattern;
import dev.capability.kernel.core.CommandKernel;
import dev.capability.ledger.SqlitePlaybook;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The playbook on the real SQLite file: corrections are recorded as vocabulary words only (never a
 * path or a file's content, searched for in the database's raw bytes), and a saved plan gets the
 * hints that concern the files its phases will write, and only those.
 */
class PlaybookTest {
  private static final String CANARY_NAME = "ZebraCanary4417";
  private static final String CANARY_CONTENT = "CANARY-CONTENT-9f31c07e-never-leaves-the-project";

  @TempDir Path tmp;
  private Path home;
  private Path repository;
  private CommandKernel kernel;

  @BeforeEach
  void setUp() throws Exception {
    home = Files.createDirectory(tmp.resolve("home"));
    repository = JavaProject.create(tmp.resolve("repo"), tmp);
    kernel = Fixtures.decidingKernel();
  }

  @AfterEach
  void tearDown() {
    if (kernel != null) {
      kernel.close();
    }
  }

  /** A correction in the project: the canary file was written on a wrong assumption and corrected. */
  private List<String> correctedCanaryFiles() throws Exception {
    Path source = Files.createDirectories(repository.resolve("src/main/java")).resolve(CANARY_NAME + ".java");
    Files.writeString(source, "public class " + CANARY_NAME + " { String s = \"" + CANARY_CONTENT + "\"; }\n");
    return List.of("src/main/java/" + CANARY_NAME + ".java");
  }

  @Test
  void aDisabledPlaybookStoresAndAnswersNothingAndCreatesNoFile() throws Exception {
    Playbook playbook = SqlitePlaybook.openIfEnabled(home).map(Playbook::using).orElse(Playbook.disabled());

    assertThat(playbook.enabled()).isFalse();
    assertThat(playbook.recordCorrection("misread-api", "api-behaviour", correctedCanaryFiles())).isEmpty();
    assertThat(playbook.hints(WorkPlans.readPlan(TWO_PHASES))).isEmpty();
    try (var listing = Files.list(home)) {
      assertThat(listing).isEmpty();
    }
  }

  @Test
  void aSavedPlanGetsTheHintsThatConcernItsPhasesAndAnUnrelatedPlanNone() throws Exception {
    try (SqlitePlaybook store = SqlitePlaybook.enable(home)) {
      Playbook playbook = Playbook.using(store);
      PlaybookPattern recorded = playbook.recordCorrection("misread-api", "api-behaviour", correctedCanaryFiles()).orElseThrow();
      assertThat(recorded).isEqualTo(new PlaybookPattern(new PlaybookEntry("misread-api", "api-behaviour", Set.of("java"), Set.of("source")), 1));
      playbook.recordCorrection("misread-api", "api-behaviour", List.of("src/main/java/Other.java"));

      WorkPlans plans = WorkPlans.builder(kernel, new InMemoryWorkPlanStore(), repository).build();
      plans.setContract(CONTRACT);
      WorkPlanRevision saved = plans.save(TWO_PHASES);
      List<PlaybookHint> hints = playbook.hints(saved.plan());

      // impl writes src/main/** (sources of any language); tests writes src/test/**, which no correction concerned.
      assertThat(hints).singleElement().satisfies(hint -> {
        assertThat(hint.phaseId()).isEqualTo("impl");
        assertThat(hint.pointer()).isEqualTo("/phases/0/writeScopes");
        assertThat(hint.pattern().occurrences()).isEqualTo(2);
        assertThat(hint.message()).contains("watch out").contains("java").contains("misread-api").contains("api-behaviour").contains("2 times");
      });

      WorkPlan docsOnly = WorkPlans.readPlan(plan(phase("docs", "[\"docs/**/*.md\"]", "[\"cat README.md\"]", "")));
      WorkPlan pythonTests = WorkPlans.readPlan(plan(phase("py", "[\"tests/**/*.py\"]", "[\"cat README.md\"]", "")));
      assertThat(playbook.hints(docsOnly)).isEmpty();
      assertThat(playbook.hints(pythonTests)).isEmpty();
    }
  }

  @Test
  void neverStoresAPathOrAFilesContent() throws Exception {
    List<String> files = correctedCanaryFiles();
    try (SqlitePlaybook store = SqlitePlaybook.enable(home)) {
      Playbook playbook = Playbook.using(store);
      playbook.recordCorrection("misread-api", "api-behaviour", files);
      playbook.recordCorrection("wrong-layout", "file-layout", List.of("src/main/java/" + CANARY_NAME + "*.java", "src/test/java/**"));
      playbook.recordCorrection("stale-docs", "documented-behaviour", List.of(repository.relativize(repository.resolve("README.md")).toString()));
      assertThat(playbook.hints(WorkPlans.readPlan(TWO_PHASES))).isNotEmpty();
    }

    List<Path> written;
    try (var listing = Files.list(home.resolve(".capability"))) {
      written = listing.toList();
    }
    assertThat(written).allSatisfy(file -> assertThat(file.getFileName().toString()).startsWith("playbook.db"));
    for (Path file : written) {
      String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
      assertThat(bytes).contains("misread-api")
          .doesNotContain(CANARY_NAME.toLowerCase(Locale.ROOT))
          .doesNotContain(CANARY_CONTENT.toLowerCase(Locale.ROOT))
          .doesNotContain("src/main")
          .doesNotContain(repository.getFileName().toString() + "/")
          .doesNotContain(tmp.toString().toLowerCase(Locale.ROOT));
    }
    for (String journal : List.of("playbook.db-journal", "playbook.db-wal", "playbook.db-shm")) {
      Path file = home.resolve(".capability").resolve(journal);
      if (Files.exists(file)) {
        assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).doesNotContain(CANARY_NAME).doesNotContain(CANARY_CONTENT);
      }
    }
  }

  @Test
  void aPathOrASentenceAsACategoryIsRefusedAndNothingIsStored() throws Exception {
    List<String> files = correctedCanaryFiles();
    try (SqlitePlaybook store = SqlitePlaybook.enable(home)) {
      Playbook playbook = Playbook.using(store);
      for (String category : List.of(files.get(0), "the API returned null where I assumed a list", CANARY_NAME)) {
        assertThatThrownBy(() -> playbook.recordCorrection(category, "api-behaviour", files))
            .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(PlaybookEntry.INVALID));
        assertThatThrownBy(() -> playbook.recordCorrection("misread-api", category, files))
            .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(PlaybookEntry.INVALID));
      }
      assertThat(store.concerning(Set.of(), Set.of())).isEmpty();
    }
  }

  @Test
  void aCorrectionOfManyLanguagesIsKeptAsAnyLanguage() throws Exception {
    List<String> files = List.of("a.java", "b.py", "c.go", "d.rs", "e.ts", "f.rb", "g.c", "h.cs", "i.php");
    try (SqlitePlaybook store = SqlitePlaybook.enable(home)) {
      PlaybookPattern recorded = Playbook.using(store).recordCorrection("misread-api", "api-behaviour", files).orElseThrow();
      assertThat(recorded.entry().languages()).isEmpty();
      assertThat(recorded.entry().roles()).containsExactly("source");
    }
  }
}
