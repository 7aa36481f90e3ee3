package dev.capability.backend.bwrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.capability.kernel.api.BackendUnavailableException;
import dev.capability.kernel.api.backend.BackendConfig;
import dev.capability.kernel.api.backend.BackendProvider;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class BwrapBackendProviderTest {
  @Test
  void isFoundByTheServiceLoaderAsBwrap() {
    List<BackendProvider> providers =
        ServiceLoader.load(BackendProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .toList();

    assertThat(providers)
        .anySatisfy(
            p -> {
              assertThat(p).isInstanceOf(BwrapBackendProvider.class);
              assertThat(p.id()).isEqualTo("bwrap");
            });
  }

  @Test
  void probesWithoutThrowingAndExplains() {
    BackendProvider.Availability availability = new BwrapBackendProvider().probe();

    assertThat(availability.reason()).isNotBlank();
    if (availability.available()) {
      assertThat(availability.reason()).startsWith("bubblewrap ");
    }
  }

  @Test
  void refusesAMisspeltSettingBeforeProbing() {
    assertThatThrownBy(
            () ->
                new BwrapBackendProvider()
                    .create(new BackendConfig(Map.of("bwrap.limits.memory", "1G"))))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("bwrap.limits.memory")
        .hasMessageContaining("unknown setting");
  }
}
