package dev.capability.kernel.core.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.core.internal.policy.EnvironmentSanitizer.SanitizedEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EnvironmentSanitizerTest {

  private static final Map<String, String> HOST = Map.of(
      "PATH", "/usr/bin:/bin",
      "LANG", "C.UTF-8",
      "HOME", "/root",
      "LD_PRELOAD", "/tmp/evil.so",
      "AWS_SECRET_ACCESS_KEY", "secret",
      "GIT_DIR", "/elsewhere");

  private final EnvironmentSanitizer sanitizer = new EnvironmentSanitizer();

  @Test
  void passesOnlyInheritedNamesTheHostHasPlusFixedValues() {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .inheritEnvironment("PATH", "LANG", "TZ")
        .setEnvironment("LC_ALL", "C")
        .setEnvironment("GIT_CONFIG_NOSYSTEM", "1")
        .build();

    SanitizedEnvironment environment = sanitizer.sanitize(policy, HOST);

    assertThat(environment.variables()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "PATH", "/usr/bin:/bin", "LANG", "C.UTF-8", "LC_ALL", "C", "GIT_CONFIG_NOSYSTEM", "1"));
    assertThat(environment.inheritedNames()).containsExactly("LANG", "PATH");
    assertThat(environment.setNames()).containsExactly("GIT_CONFIG_NOSYSTEM", "LC_ALL");
  }

  @Test
  void anEmptyPolicyPassesNothing() {
    SanitizedEnvironment environment = sanitizer.sanitize(ExecutionPolicy.builder().build(), HOST);

    assertThat(environment.variables()).isEmpty();
    assertThat(environment.inheritedNames()).isEmpty();
    assertThat(environment.setNames()).isEmpty();
  }

  @Test
  void aFixedValueWinsOverTheHost() {
    // Validation refuses a name both inherited and set; the sanitizer still resolves it safely.
    ExecutionPolicy policy = ExecutionPolicy.builder().inheritEnvironment("LANG").setEnvironment("LANG", "C").build();

    SanitizedEnvironment environment = sanitizer.sanitize(policy, HOST);

    assertThat(environment.variables()).containsExactlyEntriesOf(Map.of("LANG", "C"));
    assertThat(environment.inheritedNames()).isEmpty();
    assertThat(environment.setNames()).containsExactly("LANG");
  }

  @ParameterizedTest
  @ValueSource(strings = {"LD_PRELOAD", "GIT_DIR", "Ld_Audit", "PYTHONHOME", "BASH_FUNC_ls%%"})
  void neverInheritsADeniedNameEvenFromAnUnvalidatedPolicy(String name) {
    ExecutionPolicy slipped = ExecutionPolicy.builder().inheritEnvironment("PATH", name).build();

    PolicyException e = catchThrowableOfType(PolicyException.class, () -> sanitizer.sanitize(slipped, HOST));

    assertThat(e.code()).isEqualTo("POLICY_ENVIRONMENT_DENIED");
    assertThat(e.getMessage()).contains(name);
  }

  @Test
  void acceptingALoaderVariableInAnUnvalidatedPolicyStillNeverPassesIt() {
    ExecutionPolicy slipped = ExecutionPolicy.builder().inheritEnvironment("LD_PRELOAD").acceptDeniedEnvironment("LD_PRELOAD").build();

    PolicyException e = catchThrowableOfType(PolicyException.class, () -> sanitizer.sanitize(slipped, HOST));

    assertThat(e.code()).isEqualTo("POLICY_ENVIRONMENT_DENIED");
  }

  @Test
  void anAcceptedToolchainVariableIsPassedAndNamedAsAccepted() {
    ExecutionPolicy policy = ExecutionPolicy.builder().inheritEnvironment("PATH").setEnvironment("GOFLAGS", "-mod=mod")
        .acceptDeniedEnvironment("GOFLAGS").build();

    SanitizedEnvironment environment = sanitizer.sanitize(policy, HOST);

    assertThat(environment.variables()).containsEntry("GOFLAGS", "-mod=mod");
    assertThat(environment.acceptedNames()).containsExactly("GOFLAGS");
  }

  @ParameterizedTest
  @ValueSource(strings = {"LD_PRELOAD", "JAVA_TOOL_OPTIONS", "BASH_ENV", "IFS"})
  void neverSetsADeniedNameEvenFromAnUnvalidatedPolicy(String name) {
    ExecutionPolicy slipped = ExecutionPolicy.builder().setEnvironment(name, "x").build();

    PolicyException e = catchThrowableOfType(PolicyException.class, () -> sanitizer.sanitize(slipped, HOST));

    assertThat(e.code()).isEqualTo("POLICY_ENVIRONMENT_DENIED");
  }

  @Test
  void aRealProcessSeesExactlyTheSanitizedEnvironment() throws IOException, InterruptedException {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .inheritEnvironment("PATH", "LANG")
        .setEnvironment("GREETING", "hello world")
        .build();
    SanitizedEnvironment environment = sanitizer.sanitize(policy, HOST);
    ProcessBuilder builder = new ProcessBuilder("/usr/bin/env", "-0").redirectErrorStream(true);
    builder.environment().clear();
    builder.environment().putAll(environment.variables());

    Process env = builder.start();
    byte[] output = env.getInputStream().readAllBytes();
    assertThat(env.waitFor(30, TimeUnit.SECONDS)).isTrue();

    List<String> lines = Arrays.asList(new String(output, StandardCharsets.UTF_8).split("\0"));
    assertThat(lines).containsExactlyInAnyOrder("PATH=/usr/bin:/bin", "LANG=C.UTF-8", "GREETING=hello world");
  }
}
