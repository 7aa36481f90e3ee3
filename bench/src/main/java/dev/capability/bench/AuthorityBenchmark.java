package dev.capability.bench;

import dev.capability.kernel.api.authority.AuthorityLayer;
import dev.capability.kernel.api.authority.AuthorityLayer.Kind;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.core.internal.authority.EffectiveAuthority;
import dev.capability.kernel.core.internal.authority.WriteScope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The cost of layered authority, with a 20-pattern operator scope narrowed by a contract and a
 * phase: building the effective authority (widening proofs, symbolic-link and git-directory
 * checks, protected-path compilation), deciding a command's executable rule plus one write path
 * (per path), matching one path against the 20 patterns (per path), and auditing 100 changed
 * paths. Deciding a command should stay well under 100 µs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class AuthorityBenchmark {
  static final List<String> OPERATOR_SCOPES = List.of(
      "src/main/java/**", "src/main/resources/**", "src/test/java/**", "src/test/resources/**", "target/**",
      "build/**", "out/**", "docs/**/*.md", "README.md", "CHANGELOG.md", "pom.xml", "*/pom.xml", "gradle.properties",
      "lib/*.jar", "config/[a-z]*.yml", "scripts/?*.sh", "site/**", "generated/**", "tmp/**", "logs/*.log");

  static final List<String> PATHS = List.of(
      "src/main/java/dev/capability/kernel/core/CommandKernel.java", "target/classes/A.class", "docs/guide/intro.md",
      "README.md", "module/pom.xml", ".git/config", "src/main/java/.hidden/X.java", "config/app.yml", "other/file.txt",
      ".github/workflows/ci.yml");

  private Path repository;
  private ExecutionPolicy policy;
  private List<AuthorityLayer> layers;
  private EffectiveAuthority authority;
  private WriteScope scope;
  private List<String> changedPaths;

  @Setup
  public void setUp() throws IOException {
    repository = Files.createTempDirectory("authority-bench").toRealPath();
    Files.createDirectories(repository.resolve(".git"));
    Files.createDirectories(repository.resolve("src/main/java"));
    policy = ExecutionPolicy.builder()
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeScopes(OPERATOR_SCOPES)
        .executable(ExecutableRule.named("mvn").exact("-q", "test").build())
        .executable(ExecutableRule.named("git").exact("status").build())
        .build();
    layers = List.of(
        AuthorityLayer.builder(Kind.PROJECT_CONTRACT, "contract.json").executables("mvn", "git")
            .writeScopes(List.of("src/main/java/**", "src/test/java/**", "target/**", "pom.xml")).build(),
        AuthorityLayer.builder(Kind.PHASE, "phase.json").executables("mvn")
            .writeScopes(List.of("src/test/java/**", "target/**")).build());
    authority = EffectiveAuthority.of(policy, layers, repository);
    scope = WriteScope.of(OPERATOR_SCOPES);
    changedPaths = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      for (String path : PATHS) {
        changedPaths.add(path.replace(".java", i + ".java"));
      }
    }
  }

  @TearDown
  public void tearDown() throws IOException {
    try (Stream<Path> walk = Files.walk(repository)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  @Benchmark
  public EffectiveAuthority buildEffectiveAuthority() {
    return EffectiveAuthority.of(policy, layers, repository);
  }

  @Benchmark
  @OperationsPerInvocation(10)
  public void decideExecutableAndWriteTarget(Blackhole bh) {
    bh.consume(authority.executable("mvn"));
    for (String path : PATHS) {
      bh.consume(authority.writable(path));
    }
  }

  @Benchmark
  @OperationsPerInvocation(10)
  public void matchOnePathAgainstTwentyPatterns(Blackhole bh) {
    for (String path : PATHS) {
      bh.consume(scope.match(path));
    }
  }

  @Benchmark
  public Object auditHundredChangedPaths() {
    return authority.violations(changedPaths);
  }
}
