package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One layer held inside another (a phase inside the project contract) by the kernel's exact containment check. */
class LayerContainmentTest {
  private static AuthorityLayer contract(String... scopes) {
    return AuthorityLayer.builder(Kind.PROJECT_CONTRACT, "contract").writeScopes(List.of(scopes)).build();
  }

  private static AuthorityLayer phase(String... scopes) {
    return AuthorityLayer.builder(Kind.PHASE, "phase p").writeScopes(List.of(scopes)).build();
  }

  @Test
  void aNarrowerPhaseIsWithinTheContract() {
    assertThatCode(() -> AuthorityLayers.requireWithin(contract("src/**", "target/**"), phase("src/main/**", "target/**")))
        .doesNotThrowAnyException();
  }

  @Test
  void aWiderPhaseIsRefusedWithTheShortestCounterexample() {
    AuthorityException e = catchThrowableOfType(AuthorityException.class, () -> AuthorityLayers.requireWithin(contract("src/**"), phase("src/**", "docs/*.md")));

    assertThat(e.code()).isEqualTo("LAYER_WIDENS_OPERATOR");
    assertThat(e.getMessage()).isEqualTo("the phase layer (phase p) has the write scope \"docs/*.md\", which allows \"docs/x.md\";"
        + " no write scope of the project-contract layer (contract) [src/**] does");
  }

  @Test
  void hiddenNamesAreNotGrantedByAWildcard() {
    AuthorityException e = catchThrowableOfType(AuthorityException.class, () -> AuthorityLayers.requireWithin(contract("src/**"), phase("src/**/.*")));

    assertThat(e.getMessage()).contains("allows \"src/.");
  }

  @Test
  void constraintsTheOuterLayerLeavesOutAreNotCompared() {
    AuthorityLayer networked = AuthorityLayer.builder(Kind.PHASE, "phase p").network(NetworkMode.HOST).executables("mvn").build();

    assertThatCode(() -> AuthorityLayers.requireWithin(contract("src/**"), networked)).doesNotThrowAnyException();
    AuthorityLayer offline = AuthorityLayer.builder(Kind.PROJECT_CONTRACT, "contract").network(NetworkMode.NONE).build();
    assertThat(catchThrowableOfType(AuthorityException.class, () -> AuthorityLayers.requireWithin(offline, networked)).getMessage())
        .contains("allows network [host], which the project-contract layer (contract) does not");
  }
}
