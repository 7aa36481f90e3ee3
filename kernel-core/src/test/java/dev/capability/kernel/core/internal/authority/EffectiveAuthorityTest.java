package dev.capability.kernel.core.internal.authority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.Decision;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.authority.AuthorityException;
import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.api.backend.IsolationCapability;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class EffectiveAuthorityTest {

  private static final ExecutionPolicy SCOPED = ExecutionPolicy.builder()
      .projectWrites(ProjectWriteMode.SCOPED)
      .writeScopes(List.of("src/**", "target/**", "pom.xml", ".github/**"))
      .executable(ExecutableRule.named("git").exact("status").build())
      .executable(ExecutableRule.named("mvn").exact("-q", "test").build())
      .executable(ExecutableRule.named("ls").exact().build())
      .build();

  private static final ExecutionPolicy READ_ONLY = SCOPED.toBuilder()
      .projectWrites(ProjectWriteMode.READ_ONLY).writeScopes(List.of()).build();

  @TempDir Path repository;

  private static AuthorityLayer layer(Kind kind, UnaryOperator<AuthorityLayer.Builder> constraints) {
    return constraints.apply(AuthorityLayer.builder(kind, kind.layerName() + ".json")).build();
  }

  private EffectiveAuthority authority(ExecutionPolicy operator, AuthorityLayer... layers) {
    return EffectiveAuthority.of(operator, List.of(layers), repository);
  }

  static Stream<Arguments> widenings() {
    Stream.Builder<Arguments> all = Stream.builder();
    for (Kind kind : List.of(Kind.PROJECT_CONTRACT, Kind.PHASE, Kind.CORRECTION)) {
      all.add(Arguments.of(kind, SCOPED, (UnaryOperator<AuthorityLayer.Builder>) b -> b.executables("git", "curl"), "executables [curl]"));
      all.add(Arguments.of(kind, SCOPED, (UnaryOperator<AuthorityLayer.Builder>) b -> b.network(NetworkMode.HOST), "network [host]"));
      all.add(Arguments.of(kind, READ_ONLY, (UnaryOperator<AuthorityLayer.Builder>) b -> b.projectWrites(ProjectWriteMode.SCOPED), "project writes"));
      all.add(Arguments.of(kind, READ_ONLY, (UnaryOperator<AuthorityLayer.Builder>) b -> b.writeScopes(List.of("src/**")), "project writes"));
      all.add(Arguments.of(kind, SCOPED, (UnaryOperator<AuthorityLayer.Builder>) b -> b.writeScopes(List.of("**")), "\"**\", which allows \"x\""));
      all.add(Arguments.of(kind, SCOPED, (UnaryOperator<AuthorityLayer.Builder>) b -> b.writeScopes(List.of("src/**", "docs/*.md")), "allows \"docs/"));
      all.add(Arguments.of(kind, SCOPED, (UnaryOperator<AuthorityLayer.Builder>) b -> b.writeScopes(List.of("*.xml")), "allows \"x.xml\""));
      all.add(Arguments.of(kind, SCOPED, (UnaryOperator<AuthorityLayer.Builder>) b -> b.writeScopes(List.of("src/**/.*")), "allows \"src/."));
      all.add(Arguments.of(kind, SCOPED, (UnaryOperator<AuthorityLayer.Builder>) b -> b.writeScopes(List.of("src")), null));
    }
    return all.build().filter(arguments -> arguments.get()[3] != null);
  }

  @ParameterizedTest(name = "{0}: {3}")
  @MethodSource("widenings")
  void everyWideningOfTheOperatorIsRefused(Kind kind, ExecutionPolicy operator, UnaryOperator<AuthorityLayer.Builder> widening, String what) {
    AuthorityException e = catchThrowableOfType(AuthorityException.class, () -> authority(operator, layer(kind, widening)));

    assertThat(e).as("widening %s", what).isNotNull();
    assertThat(e.code()).isEqualTo("LAYER_WIDENS_OPERATOR");
    assertThat(e.getMessage()).contains("the " + kind.layerName() + " layer (" + kind.layerName() + ".json)", what);
  }

  @Test
  void aWideningLowerLayerIsRefusedEvenBelowANarrowerOne() {
    AuthorityLayer contract = layer(Kind.PROJECT_CONTRACT, b -> b.writeScopes(List.of("src/main/**")));
    AuthorityLayer phase = layer(Kind.PHASE, b -> b.writeScopes(List.of("lib/**")));

    AuthorityException e = catchThrowableOfType(AuthorityException.class, () -> authority(SCOPED, contract, phase));

    assertThat(e.code()).isEqualTo("LAYER_WIDENS_OPERATOR");
    assertThat(e.getMessage()).contains("phase", "\"lib\"");
  }

  @Test
  void narrowerLayersAreAccepted() {
    EffectiveAuthority authority = authority(SCOPED,
        layer(Kind.PROJECT_CONTRACT, b -> b.executables("git", "mvn").network(NetworkMode.NONE)
            .writeScopes(List.of("src/**", "target/classes/**", "pom.xml"))),
        layer(Kind.PHASE, b -> b.executables("git").writeScopes(List.of("src/main/**", "src/*.java"))),
        layer(Kind.CORRECTION, b -> b.projectWrites(ProjectWriteMode.SCOPED).writeScopes(List.of("src/main/java/[A-Z]*.java"))));

    assertThat(authority.layers()).extracting(AuthorityLayer::kind)
        .containsExactly(Kind.OPERATOR, Kind.PROJECT_CONTRACT, Kind.PHASE, Kind.CORRECTION);
  }

  @Test
  void eachLayerNarrowsAndTheDenialNamesIt() {
    EffectiveAuthority authority = authority(SCOPED,
        layer(Kind.CORRECTION, b -> b.writeScopes(List.of("src/main/java/Foo.java"))),
        layer(Kind.PROJECT_CONTRACT, b -> b.writeScopes(List.of("src/**"))),
        layer(Kind.PHASE, b -> b.writeScopes(List.of("src/main/**"))));

    assertDenied(authority.writable("docs/readme.md"), "WRITE_OUTSIDE_SCOPE", "operator");
    assertDenied(authority.writable("target/x"), "WRITE_OUTSIDE_SCOPE", "project-contract");
    assertDenied(authority.writable("src/test/FooTest.java"), "WRITE_OUTSIDE_SCOPE", "phase");
    assertDenied(authority.writable("src/main/java/Bar.java"), "WRITE_OUTSIDE_SCOPE", "correction");
    Decision allowed = authority.writable("src/main/java/Foo.java");
    assertThat(allowed.allowed()).isTrue();
    assertThat(allowed.layer()).isEqualTo("correction");
    assertThat(allowed.rule()).isEqualTo("writeScopes[0]");
  }

  @Test
  void theDenialMessageNamesTheLayerSourceAndItsScopes() {
    EffectiveAuthority authority = authority(SCOPED, layer(Kind.PHASE, b -> b.writeScopes(List.of("src/main/**"))));

    assertThat(authority.writable("src/test/x").message())
        .contains("\"src/test/x\"", "the phase layer (phase.json)", "[src/main/**]");
  }

  @Test
  void executablesAreAllowedOnlyWhenEveryLayerListsThem() {
    EffectiveAuthority authority = authority(SCOPED,
        layer(Kind.PROJECT_CONTRACT, b -> b.executables("git", "mvn")),
        layer(Kind.PHASE, b -> b.executables("git")));

    assertDenied(authority.executable("mvn"), "EXECUTABLE_NOT_ALLOWED", "phase");
    assertDenied(authority.executable("ls"), "EXECUTABLE_NOT_ALLOWED", "project-contract");
    assertDenied(authority.executable("curl"), "EXECUTABLE_NOT_ALLOWED", "operator");
    assertThat(authority.executable("git").allowed()).isTrue();
    assertThat(authority.executable("git").layer()).isEqualTo("phase");
  }

  @Test
  void aReadOnlyLayerForbidsEveryWriteWhateverItsParentsAllow() {
    EffectiveAuthority authority = authority(SCOPED, layer(Kind.PHASE, b -> b.projectWrites(ProjectWriteMode.READ_ONLY)));

    assertDenied(authority.writable("src/A.java"), "PROJECT_READ_ONLY", "phase");
    assertThat(authority.projectWrites()).isEqualTo(ProjectWriteMode.READ_ONLY);
    assertThat(authority.writableRoots()).isEmpty();
    assertDenied(authority(READ_ONLY).writable("src/A.java"), "PROJECT_READ_ONLY", "operator");
  }

  @Test
  void theNetworkIsTheWidestModeEveryLayerAllows() {
    ExecutionPolicy host = SCOPED.toBuilder().network(NetworkMode.HOST).build();
    EnumSet<IsolationCapability> none = EnumSet.noneOf(IsolationCapability.class);
    EnumSet<IsolationCapability> namespace = EnumSet.of(IsolationCapability.NETWORK_NAMESPACE);

    assertThat(authority(host).networkMode()).contains(NetworkMode.HOST);
    assertThat(authority(host).withBackend("process", none).networkMode()).contains(NetworkMode.HOST);
    assertThat(authority(host, layer(Kind.PHASE, b -> b.network(NetworkMode.NONE))).networkMode()).contains(NetworkMode.NONE);
    assertThat(authority(SCOPED).withBackend("bwrap", namespace).network().allowed()).isTrue();
    assertThat(authority(SCOPED).withBackend("bwrap", namespace).network().rule()).isEqualTo("network.none");

    EffectiveAuthority unenforceable = authority(host, layer(Kind.CORRECTION, b -> b.network(NetworkMode.NONE))).withBackend("process", none);
    assertDenied(unenforceable.network(), "NETWORK_NOT_ENFORCEABLE", "backend");
    assertThat(unenforceable.network().message()).contains("[host]", "[none]");
    assertThat(unenforceable.networkMode()).isEmpty();
  }

  @Test
  void filteredNetworkLiesBetweenNoneAndHost() {
    ExecutionPolicy host = SCOPED.toBuilder().network(NetworkMode.HOST).build();
    ExecutionPolicy filtered = SCOPED.toBuilder().network(NetworkMode.FILTERED).build();
    EnumSet<IsolationCapability> namespace = EnumSet.of(IsolationCapability.NETWORK_NAMESPACE);
    EnumSet<IsolationCapability> proxied = EnumSet.of(IsolationCapability.NETWORK_NAMESPACE, IsolationCapability.FILTERED_EGRESS);

    assertThat(authority(filtered).networkMode()).contains(NetworkMode.FILTERED);
    assertThat(authority(filtered).network().rule()).isEqualTo("network.filtered");
    assertThat(authority(host, layer(Kind.PHASE, b -> b.network(NetworkMode.FILTERED))).networkMode()).contains(NetworkMode.FILTERED);
    assertThat(authority(filtered, layer(Kind.CORRECTION, b -> b.network(NetworkMode.NONE))).networkMode()).contains(NetworkMode.NONE);
    assertThat(authority(filtered).withBackend("bwrap", proxied).networkMode()).contains(NetworkMode.FILTERED);
    assertThat(authority(host).withBackend("bwrap", proxied).networkMode()).contains(NetworkMode.HOST);

    AuthorityException widening = catchThrowableOfType(AuthorityException.class,
        () -> authority(filtered, layer(Kind.PHASE, b -> b.network(NetworkMode.HOST))));
    assertThat(widening.code()).isEqualTo("LAYER_WIDENS_OPERATOR");
    assertThat(widening.getMessage()).contains("allows network [host]");
    AuthorityException overNone = catchThrowableOfType(AuthorityException.class,
        () -> authority(SCOPED, layer(Kind.CORRECTION, b -> b.network(NetworkMode.FILTERED))));
    assertThat(overNone.getMessage()).contains("allows network [filtered]");
  }

  @Test
  void onlyABackendWithFilteredEgressCanHoldACommandToFilteredNetwork() {
    ExecutionPolicy filtered = SCOPED.toBuilder().network(NetworkMode.FILTERED).build();

    assertThat(AuthorityLayer.backend("bwrap", EnumSet.of(IsolationCapability.NETWORK_NAMESPACE)).network())
        .contains(EnumSet.of(NetworkMode.NONE, NetworkMode.HOST));
    assertThat(AuthorityLayer.backend("bwrap", EnumSet.of(IsolationCapability.FILTERED_EGRESS)).network())
        .contains(EnumSet.of(NetworkMode.FILTERED, NetworkMode.HOST));
    // Without the capability the intersection loses filtered network; the pipeline refuses such a
    // backend before it is ever layered (NETWORK_FILTER_UNAVAILABLE), so this narrowing never runs a command.
    assertThat(authority(filtered).withBackend("bwrap", EnumSet.of(IsolationCapability.NETWORK_NAMESPACE)).networkMode())
        .contains(NetworkMode.NONE);
    EffectiveAuthority process = authority(filtered).withBackend("process", EnumSet.noneOf(IsolationCapability.class));
    assertDenied(process.network(), "NETWORK_NOT_ENFORCEABLE", "backend");
  }

  @Test
  void protectedPathsWinOverEveryScope() {
    ExecutionPolicy everything = SCOPED.toBuilder()
        .writeScopes(List.of("**", ".git/**", ".github/**", ".capability/**", "a/.envrc", ".mvn/**", "sub/.git/**")).build();
    EffectiveAuthority authority = authority(everything);

    assertDenied(authority.writable(".git/config"), "WRITE_PROTECTED", "builtin");
    assertDenied(authority.writable(".git"), "WRITE_PROTECTED", "builtin");
    assertDenied(authority.writable("sub/.git/config"), "WRITE_PROTECTED", "builtin");
    assertDenied(authority.writable(".capability/ledger/1.json"), "WRITE_PROTECTED", "builtin");
    assertDenied(authority.writable(".github/workflows/ci.yml"), "WRITE_PROTECTED", "operator");
    assertDenied(authority.writable("a/.envrc"), "WRITE_PROTECTED", "operator");
    assertDenied(authority.writable(".mvn/jvm.config"), "WRITE_PROTECTED", "operator");
    assertThat(authority.writable(".github/CODEOWNERS").allowed()).isTrue();
    assertThat(authority.writable("src/A.java").allowed()).isTrue();
  }

  @Test
  void theOperatorCanReplaceTheConfigurableListButNotTheBuiltInOne() {
    ExecutionPolicy custom = SCOPED.toBuilder().writeScopes(List.of("**", ".git/**", ".github/**")).protectedPaths(List.of("src/generated")).build();
    EffectiveAuthority authority = authority(custom);

    assertThat(authority.writable(".github/workflows/ci.yml").allowed()).isTrue();
    assertDenied(authority.writable("src/generated/A.java"), "WRITE_PROTECTED", "operator");
    assertDenied(authority.writable(".git/hooks/pre-commit"), "WRITE_PROTECTED", "builtin");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "/etc/passwd", "a/../b", "../x", "a//b", "./a", "a/", "a\u0000b", "\uD800"})
  void pathsThatAreNotNormalizedRepositoryPathsAreRefusedNotNormalized(String path) {
    assertDenied(authority(SCOPED).writable(path), "PATH_INVALID", "builtin");
  }

  @ParameterizedTest
  @EnumSource(value = Kind.class, names = {"PROJECT_CONTRACT", "PHASE", "CORRECTION", "BACKEND"})
  void aLayerKindMayAppearOnlyOnce(Kind kind) {
    AuthorityException e = catchThrowableOfType(AuthorityException.class,
        () -> authority(SCOPED, layer(kind, b -> b), layer(kind, b -> b)));

    assertThat(e.code()).isEqualTo("LAYER_INVALID");
  }

  @Test
  void theOperatorLayerComesOnlyFromThePolicy() {
    AuthorityException e = catchThrowableOfType(AuthorityException.class,
        () -> authority(READ_ONLY, AuthorityLayer.operator(SCOPED)));

    assertThat(e.code()).isEqualTo("LAYER_INVALID");
  }

  @Test
  void aBadPatternInALayerIsReportedWithTheLayer() {
    AuthorityException e = catchThrowableOfType(AuthorityException.class,
        () -> authority(SCOPED, layer(Kind.PHASE, b -> b.writeScopes(List.of("src/{a,b}/**")))));

    assertThat(e.code()).isEqualTo("SCOPE_PATTERN_INVALID");
    assertThat(e.getMessage()).contains("phase", "brace");
  }

  @Test
  void aScopeThroughASymbolicLinkIsRefused(@TempDir Path elsewhere) throws IOException {
    Files.createDirectories(repository.resolve("src"));
    Files.createSymbolicLink(repository.resolve("src/gen"), elsewhere);

    AuthorityException throughParent = catchThrowableOfType(AuthorityException.class,
        () -> authority(SCOPED, layer(Kind.PHASE, b -> b.writeScopes(List.of("src/gen/**")))));
    Files.createSymbolicLink(repository.resolve("pom.xml"), elsewhere.resolve("pom.xml"));
    AuthorityException atTheEnd = catchThrowableOfType(AuthorityException.class, () -> authority(SCOPED));

    assertThat(throughParent.code()).isEqualTo("SCOPE_THROUGH_SYMLINK");
    assertThat(throughParent.getMessage()).contains("src/gen", "phase");
    assertThat(atTheEnd.code()).isEqualTo("SCOPE_THROUGH_SYMLINK");
    assertThat(atTheEnd.getMessage()).contains("pom.xml", "operator");
  }

  @Test
  void violationsAreEveryChangedPathTheCommandCouldNotWrite() {
    EffectiveAuthority authority = authority(SCOPED, layer(Kind.PHASE, b -> b.writeScopes(List.of("src/**", "target/**"))));

    List<WriteViolation> violations = authority.violations(List.of(
        "target/classes/A.class", "src/A.java", "pom.xml", ".git/config", "src/A.java", "a/../b", ".envrc"));

    assertThat(violations).extracting(WriteViolation::path).containsExactly(".envrc", ".git/config", "a/../b", "pom.xml");
    assertThat(violations).extracting(violation -> violation.decision().code())
        .containsExactly("WRITE_PROTECTED", "WRITE_PROTECTED", "PATH_INVALID", "WRITE_OUTSIDE_SCOPE");
    assertThat(violations.get(3).decision().layer()).isEqualTo("phase");
  }

  @Test
  void writableRootsAreTheDeepestStartsEveryScopeShares() {
    assertThat(authority(SCOPED, layer(Kind.PHASE, b -> b.writeScopes(List.of("src/main/**", "pom.xml")))).writableRoots())
        .containsExactly(repository.resolve("pom.xml"), repository.resolve("src/main"));
    assertThat(authority(SCOPED).writableRoots())
        .containsExactly(repository.resolve(".github"), repository.resolve("pom.xml"), repository.resolve("src"), repository.resolve("target"));
    assertThat(authority(SCOPED.toBuilder().writeScopes(List.of("**/*.class", "src/**")).build()).writableRoots())
        .containsExactly(repository);
  }

  private static void assertDenied(Decision decision, String code, String layer) {
    assertThat(decision.allowed()).as(decision.message()).isFalse();
    assertThat(decision.code()).as(decision.message()).isEqualTo(code);
    assertThat(decision.layer()).as(decision.message()).isEqualTo(layer);
  }
}
