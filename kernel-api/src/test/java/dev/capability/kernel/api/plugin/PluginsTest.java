package dev.capability.kernel.api.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.store.EvidenceStore;
import dev.capability.kernel.api.store.EvidenceStoreProvider;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Providers are found on a real class path, through {@code META-INF/services} files a test class loader sees. */
class PluginsTest {
  @TempDir Path classPath;

  /** A store provider with the id {@code memory}. */
  public static final class MemoryStore implements EvidenceStoreProvider {
    @Override
    public String id() {
      return "memory";
    }

    @Override
    public EvidenceStore open(Path repository) {
      return result -> {};
    }
  }

  /** Another class claiming the same id. */
  public static final class OtherMemoryStore implements EvidenceStoreProvider {
    @Override
    public String id() {
      return "memory";
    }

    @Override
    public EvidenceStore open(Path repository) {
      return result -> {};
    }
  }

  /** A third, with its own id. */
  public static final class FileStore implements EvidenceStoreProvider {
    @Override
    public String id() {
      return "file";
    }

    @Override
    public EvidenceStore open(Path repository) {
      return result -> {};
    }
  }

  private ClassLoader listing(Class<?>... providers) throws IOException {
    Path services = Files.createDirectories(classPath.resolve("META-INF/services"));
    StringBuilder lines = new StringBuilder();
    for (Class<?> provider : providers) {
      lines.append(provider.getName()).append('\n');
    }
    Files.writeString(services.resolve(EvidenceStoreProvider.class.getName()), lines);
    return new URLClassLoader(new URL[] {classPath.toUri().toURL()}, getClass().getClassLoader());
  }

  @Test
  void findsEveryListedProviderByItsIdInDiscoveryOrder() throws IOException {
    var found = Plugins.load(EvidenceStoreProvider.class, EvidenceStoreProvider::id, listing(FileStore.class, MemoryStore.class));

    assertThat(found.keySet()).containsExactly("file", "memory");
    assertThat(found.get("memory")).isInstanceOf(MemoryStore.class);
  }

  @Test
  void twoProvidersClaimingOneIdFailNamingBothClasses() throws IOException {
    ClassLoader loader = listing(MemoryStore.class, FileStore.class, OtherMemoryStore.class);

    assertThatThrownBy(() -> Plugins.load(EvidenceStoreProvider.class, EvidenceStoreProvider::id, loader))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(Plugins.DUPLICATE))
        .hasMessageContaining("'memory'")
        .hasMessageContaining(MemoryStore.class.getName())
        .hasMessageContaining(OtherMemoryStore.class.getName())
        .hasMessageContaining(EvidenceStoreProvider.class.getName());
  }

  @Test
  void aListedClassThatIsNotThereIsInvalidNamingTheService() throws IOException {
    Path services = Files.createDirectories(classPath.resolve("META-INF/services"));
    Files.writeString(services.resolve(EvidenceStoreProvider.class.getName()), "no.such.StoreProvider\n");
    ClassLoader loader = new URLClassLoader(new URL[] {classPath.toUri().toURL()}, getClass().getClassLoader());

    assertThatThrownBy(() -> Plugins.load(EvidenceStoreProvider.class, EvidenceStoreProvider::id, loader))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(Plugins.INVALID))
        .hasMessageContaining(EvidenceStoreProvider.class.getName())
        .hasMessageContaining("no.such.StoreProvider");
  }

  @Test
  void aProviderWithoutAnIdIsInvalid() {
    EvidenceStoreProvider nameless = new EvidenceStoreProvider() {
      @Override
      public String id() {
        return "";
      }

      @Override
      public EvidenceStore open(Path repository) {
        return result -> {};
      }
    };

    assertThatThrownBy(() -> Plugins.byId(EvidenceStoreProvider.class, EvidenceStoreProvider::id, List.of(nameless)))
        .isInstanceOfSatisfying(CapabilityException.class, e -> assertThat(e.code()).isEqualTo(Plugins.INVALID))
        .hasMessageContaining("reports no id");
  }
}
