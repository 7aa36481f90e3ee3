package dev.capability.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.plugin.Plugins;
import dev.capability.kernel.api.store.EvidenceStore;
import dev.capability.kernel.api.store.EvidenceStoreProvider;
import dev.capability.kernel.api.store.EvidenceStores;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite ledger is found by its id through the one plugin loader, from this module's real {@code META-INF/services}. */
class LedgerProviderTest {
  @TempDir Path repo;
  @TempDir Path classPath;

  /** Another class claiming the id {@code sqlite}, listed only on the class path a test builds. */
  public static final class OtherSqlite implements EvidenceStoreProvider {
    @Override
    public String id() {
      return LedgerProvider.ID;
    }

    @Override
    public EvidenceStore open(Path repository) {
      throw new AssertionError("a provider with a duplicate id must never be opened");
    }
  }

  @Test
  void theSqliteStoreIsFoundByIdAndRecordsIntoTheRepositoryLedger() {
    try (EvidenceStore store = EvidenceStores.open(LedgerProvider.ID, repo, getClass().getClassLoader())) {
      assertThat(store).isInstanceOf(SqliteLedger.class);
      store.record(Fixtures.completed(List.of("git", "status"), 0, "clean"));
    }

    assertThat(LedgerReader.forRepository(repo).list(LedgerQuery.latest(10)))
        .extracting(EntrySummary::argv)
        .containsExactly(List.of("git", "status"));
    assertThat(LedgerReader.forRepository(repo).verify().intact()).isTrue();
  }

  @Test
  void anUnknownStoreIdNamesTheStoresThatAreThere() {
    assertThatThrownBy(() -> EvidenceStores.open("postgres", repo, getClass().getClassLoader()))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(EvidenceStores.UNKNOWN))
        .hasMessageContaining("'postgres'")
        .hasMessageContaining("[sqlite]");
    assertThat(repo.resolve(".capability")).doesNotExist();
  }

  @Test
  void twoStoresClaimingOneIdFailNamingBothClasses() throws IOException {
    Path services = Files.createDirectories(classPath.resolve("META-INF/services"));
    Files.writeString(services.resolve(EvidenceStoreProvider.class.getName()), OtherSqlite.class.getName() + "\n");
    ClassLoader loader = new URLClassLoader(new URL[] {classPath.toUri().toURL()}, getClass().getClassLoader());

    assertThatThrownBy(() -> EvidenceStores.open(LedgerProvider.ID, repo, loader))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(Plugins.DUPLICATE))
        .hasMessageContaining(LedgerProvider.class.getName())
        .hasMessageContaining(OtherSqlite.class.getName());
    assertThat(repo.resolve(".capability")).doesNotExist();
  }
}
