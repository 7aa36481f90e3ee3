package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.policy.ArgumentRules;
import dev.capability.kernel.api.policy.DoubleDashMode;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.FlagRule;
import dev.capability.kernel.api.policy.OperandRule;
import dev.capability.kernel.api.policy.PolicyExamples;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.kernel.api.policy.SubcommandRule;
import dev.capability.kernel.api.policy.ToolConfigurationPin;
import dev.capability.kernel.api.policy.ValueRule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The semantic checks every policy gets, whether it comes from a file or from code: both paths
 * must refuse the same policy with the same code and message.
 */
class PolicyValidationTest {

  private static final ExecutableRule LS = ExecutableRule.named("ls").exact().build();

  /** Refuses {@code policy} built in code, and its JSON, with the same code and message. */
  private static PolicyException refusedBothWays(ExecutionPolicy policy) {
    PolicyException fromCode = catchThrowableOfType(PolicyException.class, () -> ExecutionPolicies.of(policy));
    assertThat(fromCode).as("refusal of a policy built in code").isNotNull();
    String json = ExecutionPolicies.toJson(policy);
    PolicyException fromFile = catchThrowableOfType(PolicyException.class, () -> ExecutionPolicies.parse(json, "file"));
    assertThat(fromFile).as("refusal of the same policy as JSON").isNotNull();
    assertThat(fromFile.code()).isEqualTo(fromCode.code());
    assertThat(fromFile.getMessage()).isEqualTo(fromCode.getMessage());
    return fromCode;
  }

  static void assertRefused(ExecutionPolicy policy, String code, String... messageParts) {
    PolicyException e = refusedBothWays(policy);
    assertThat(e.code()).as(e.getMessage()).isEqualTo(code);
    if (messageParts.length > 0) {
      assertThat(e.getMessage()).contains(messageParts);
    }
  }

  static ExecutionPolicy withRule(UnaryOperator<ArgumentRules.Builder> rules) {
    return ExecutionPolicy.builder()
        .executable(ExecutableRule.named("tool").arguments(rules.apply(ArgumentRules.builder()).build()).build())
        .build();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "LD_PRELOAD", "LD_LIBRARY_PATH", "ld_preload", "DYLD_INSERT_LIBRARIES", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
      "JDK_JAVA_OPTIONS", "MAVEN_OPTS", "NODE_OPTIONS", "PYTHONPATH", "PYTHONSTARTUP", "BASH_ENV", "ENV", "IFS", "PS4",
      "PERL5OPT", "RUBYOPT", "SHELLOPTS", "BASHOPTS", "PROMPT_COMMAND", "CDPATH", "CLASSPATH", "GCONV_PATH", "LESSOPEN",
      "OPENSSL_CONF", "npm_config_script_shell"})
  void refusesCodeInjectingVariablesWhetherInheritedOrSet(String name) {
    assertRefused(ExecutionPolicy.builder().inheritEnvironment(name).build(), "POLICY_ENVIRONMENT_DENIED", name);
    assertRefused(ExecutionPolicy.builder().setEnvironment(name, "x").build(), "POLICY_ENVIRONMENT_DENIED", name);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "GOFLAGS", "GOENV", "LUA_INIT", "LUA_INIT_5_4", "LUA_PATH", "LUA_CPATH_5_3",
      "DOTNET_STARTUP_HOOKS", "CORECLR_PROFILER_PATH", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTC", "RUSTFLAGS",
      "CARGO_BUILD_RUSTC_WRAPPER", "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", "CARGO_ENCODED_RUSTFLAGS",
      "GRADLE_USER_HOME", "ANT_OPTS", "SBT_OPTS", "NODE_REPL_EXTERNAL_MODULE", "PHPRC", "PHP_INI_SCAN_DIR",
      "OPENSSL_MODULES", "ZDOTDIR", "LD_AUDIT", "HOSTALIASES", "LOCPATH", "NLSPATH", "MALLOC_TRACE", "RES_OPTIONS",
      "TAR_OPTIONS", "RIPGREP_CONFIG_PATH", "MAKEFLAGS", "XZ_OPT", "ERL_AFLAGS", "GIO_EXTRA_MODULES", "KUBECONFIG",
      "POSIXLY_CORRECT"})
  void refusesToolchainInjectorsAndCLibraryVariablesWhetherInheritedOrSet(String name) {
    assertRefused(ExecutionPolicy.builder().inheritEnvironment(name).build(), "POLICY_ENVIRONMENT_DENIED", name);
    assertRefused(ExecutionPolicy.builder().setEnvironment(name, "x").build(), "POLICY_ENVIRONMENT_DENIED", name);
    assertRefused(ExecutionPolicy.builder().requestEnvironment(name).build(), "POLICY_ENVIRONMENT_DENIED", name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"PATH", "HOME", "JAVA_HOME", "CC", "EDITOR", "PAGER", "SHELL", "SSH_ASKPASS"})
  void namesThatChooseWhichProgramRunsNeverComeFromARequestButAnOperatorMayInheritThem(String name) {
    assertRefused(ExecutionPolicy.builder().requestEnvironment(name).build(), "POLICY_ENVIRONMENT_DENIED", name);
    ExecutionPolicies.of(ExecutionPolicy.builder().inheritEnvironment(name).build());
  }

  @ParameterizedTest
  @ValueSource(strings = {"MAVEN_OPTS", "PYTEST_ADDOPTS", "PYTHONPATH", "NODE_OPTIONS", "RUSTC_WRAPPER", "npm_config_cache"})
  void anOperatorMayAcceptAToolchainVariableItInheritsOrSets(String name) {
    LoadedPolicy inherited = ExecutionPolicies.of(
        ExecutionPolicy.builder().inheritEnvironment(name).acceptDeniedEnvironment(name).build());
    LoadedPolicy set = ExecutionPolicies.of(
        ExecutionPolicy.builder().setEnvironment(name, "x").acceptDeniedEnvironment(name).build());

    assertThat(inherited.policy().acceptedDeniedEnvironment()).containsExactly(name);
    assertThat(set.policy().setEnvironment()).containsKey(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"LD_PRELOAD", "ld_audit", "DYLD_INSERT_LIBRARIES", "BASH_FUNC_ls", "BASH_ENV", "ENV",
      "IFS", "PROMPT_COMMAND", "GCONV_PATH", "GLIBC_TUNABLES", "ZDOTDIR"})
  void noPolicyMayAcceptALoaderOrShellVariable(String name) {
    assertRefused(ExecutionPolicy.builder().inheritEnvironment(name).acceptDeniedEnvironment(name).build(),
        "POLICY_ENVIRONMENT_DENIED", "at /environment/acceptDenied:", "not even when accepted");
    assertRefused(ExecutionPolicy.builder().setEnvironment(name, "x").acceptDeniedEnvironment(name).build(),
        "POLICY_ENVIRONMENT_DENIED", "at /environment/acceptDenied:");
  }

  @Test
  void anAcceptedNameMustBeOnTheDenyListAndInheritedOrSet() {
    assertRefused(ExecutionPolicy.builder().inheritEnvironment("LANG").acceptDeniedEnvironment("LANG").build(),
        "POLICY_INVALID", "LANG is not on the deny list");
    assertRefused(ExecutionPolicy.builder().acceptDeniedEnvironment("MAVEN_OPTS").build(),
        "POLICY_INVALID", "MAVEN_OPTS is accepted but neither inherited nor set");
    // A request never gives a deny-listed name, accepted or not.
    assertRefused(ExecutionPolicy.builder().requestEnvironment("MAVEN_OPTS").acceptDeniedEnvironment("MAVEN_OPTS").build(),
        "POLICY_INVALID", "MAVEN_OPTS is accepted but neither inherited nor set");
    // Acceptance is by exact spelling: accepting one name does not accept another case of it.
    assertRefused(ExecutionPolicy.builder().inheritEnvironment("maven_opts").setEnvironment("MAVEN_OPTS", "x")
        .acceptDeniedEnvironment("MAVEN_OPTS").build(), "POLICY_ENVIRONMENT_DENIED", "maven_opts");
  }

  @Test
  void gitVariablesMayBeSetButNeverInherited() {
    assertRefused(ExecutionPolicy.builder().inheritEnvironment("GIT_DIR").build(), "POLICY_ENVIRONMENT_DENIED", "GIT_DIR");
    assertRefused(ExecutionPolicy.builder().inheritEnvironment("GIT_SSH_COMMAND").build(), "POLICY_ENVIRONMENT_DENIED");

    LoadedPolicy loaded = ExecutionPolicies.of(ExecutionPolicy.builder().setEnvironment("GIT_CONFIG_NOSYSTEM", "1").build());

    assertThat(loaded.policy().setEnvironment()).containsKey("GIT_CONFIG_NOSYSTEM");
  }

  @ParameterizedTest
  @ValueSource(strings = {"LD_PRELOAD", "ld_preload", "DYLD_INSERT_LIBRARIES", "JAVA_TOOL_OPTIONS", "BASH_ENV",
      "GIT_DIR", "GIT_CONFIG_GLOBAL", "GIT_SSH_COMMAND", "PATH", "HOME", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS"})
  void refusesRequestVariablesTheKernelNeverTakesFromARequest(String name) {
    assertRefused(ExecutionPolicy.builder().requestEnvironment(name).build(), "POLICY_ENVIRONMENT_DENIED",
        "at /environment/request:", name);
  }

  @Test
  void refusesARequestNameThatIsAlsoInheritedOrSet() {
    assertRefused(ExecutionPolicy.builder().inheritEnvironment("LANG").requestEnvironment("LANG").build(),
        "POLICY_INVALID", "LANG is both inherited and given by requests");
    assertRefused(ExecutionPolicy.builder().setEnvironment("LANG", "C").requestEnvironment("LANG").build(),
        "POLICY_INVALID", "LANG is both set and given by requests");
  }

  @Test
  void refusesMalformedRequestNames() {
    assertRefused(ExecutionPolicy.builder().requestEnvironment("A-B").build(), "POLICY_INVALID", "/environment/request");
  }

  @Test
  void requestNamesAreReadFromTheEnvironmentSectionAndWrittenOnlyWhenPresent() {
    LoadedPolicy loaded = ExecutionPolicies.parse(
        "{\"version\": 1, \"environment\": {\"inherit\": [\"PATH\"], \"request\": [\"TCK_B\", \"TCK_A\"]}}", "file");

    assertThat(loaded.policy().requestEnvironment()).containsExactly("TCK_A", "TCK_B");
    assertThat(ExecutionPolicies.parse(ExecutionPolicies.toJson(loaded.policy()), "file").policy())
        .isEqualTo(loaded.policy());
    assertThat(ExecutionPolicies.toJson(ExecutionPolicy.builder().build())).doesNotContain("request");
    assertThat(ExecutionPolicies.of(ExecutionPolicy.builder().inheritEnvironment("PATH").build()).hash())
        .isNotEqualTo(loaded.hash());
  }

  @Test
  void acceptedNamesAreReadFromTheEnvironmentSectionAndWrittenOnlyWhenPresent() {
    LoadedPolicy loaded = ExecutionPolicies.parse("{\"version\": 1, \"environment\": {\"inherit\": [\"MAVEN_OPTS\"],"
        + " \"set\": {\"PYTEST_ADDOPTS\": \"-q\"}, \"acceptDenied\": [\"PYTEST_ADDOPTS\", \"MAVEN_OPTS\"]}}", "file");

    assertThat(loaded.policy().acceptedDeniedEnvironment()).containsExactly("MAVEN_OPTS", "PYTEST_ADDOPTS");
    assertThat(ExecutionPolicies.parse(ExecutionPolicies.toJson(loaded.policy()), "file").policy())
        .isEqualTo(loaded.policy());
    assertThat(ExecutionPolicies.toJson(ExecutionPolicy.builder().build())).doesNotContain("acceptDenied");
  }

  @Test
  void refusesOneNameBothInheritedAndSet() {
    assertRefused(ExecutionPolicy.builder().inheritEnvironment("LANG").setEnvironment("LANG", "C").build(),
        "POLICY_INVALID", "LANG is both inherited and set");
  }

  @Test
  void refusesMalformedEnvironmentNamesAndValues() {
    assertRefused(ExecutionPolicy.builder().inheritEnvironment("A-B").build(), "POLICY_INVALID", "/environment/inherit");
    assertRefused(ExecutionPolicy.builder().inheritEnvironment("").build(), "POLICY_INVALID");
    assertRefused(ExecutionPolicy.builder().setEnvironment("A=B", "x").build(), "POLICY_INVALID", "/environment/set/A=B");
    assertRefused(ExecutionPolicy.builder().setEnvironment("A", "x\0y").build(), "POLICY_INVALID", "NUL");
  }

  @Test
  void refusesLimitsOutOfRange() {
    assertRefused(ExecutionPolicy.builder().timeout(Duration.ZERO).build(), "POLICY_INVALID", "/timeoutMillis");
    assertRefused(ExecutionPolicy.builder().timeout(Duration.ofHours(25)).build(), "POLICY_INVALID", "/timeoutMillis");
    assertRefused(ExecutionPolicy.builder().maxOutputBytes((1L << 30) + 1).build(), "POLICY_INVALID", "/maxOutputBytes");
    assertRefused(ExecutionPolicy.builder().maxFileBytes(0).build(), "POLICY_INVALID", "/maxFileBytes");
    assertRefused(ExecutionPolicy.builder().maxFileBytes((1L << 50) + 1).build(), "POLICY_INVALID", "/maxFileBytes");
    assertRefused(ExecutionPolicy.builder().maxWriteBytes(0).build(), "POLICY_INVALID", "/maxWriteBytes");
    assertRefused(ExecutionPolicy.builder().maxWriteBytes((1L << 50) + 1).build(), "POLICY_INVALID", "/maxWriteBytes");
  }

  @Test
  void refusesATimeoutTheFileFormatCannotHold() {
    PolicyException e = catchThrowableOfType(PolicyException.class,
        () -> ExecutionPolicies.of(ExecutionPolicy.builder().timeout(Duration.ofNanos(1_500_000)).build()));

    assertThat(e.code()).isEqualTo("POLICY_INVALID");
    assertThat(e.getMessage()).contains("whole number of milliseconds");
  }

  @Test
  void writeScopesAgreeWithTheWriteMode() {
    assertRefused(ExecutionPolicy.builder().writeScopes(List.of("target/**")).build(), "POLICY_INVALID", "read-only");
    assertRefused(ExecutionPolicy.builder().projectWrites(ProjectWriteMode.SCOPED).build(), "POLICY_INVALID", "at least one");

    LoadedPolicy scoped = ExecutionPolicies.of(ExecutionPolicy.builder()
        .projectWrites(ProjectWriteMode.SCOPED).writeScopes(List.of("target/**", "build/*.log", "out/?/x")).build());

    assertThat(scoped.policy().writeScopes()).hasSize(3);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/abs", "../x", "a/../b", "a//b", "a/", "./a", "~/x", "a**/b", "a/b**", "a[bc", "[z-a]", "{a,b}", "a\\b", "a\u0007", ""})
  void refusesMalformedWriteScopes(String scope) {
    assertRefused(ExecutionPolicy.builder().projectWrites(ProjectWriteMode.SCOPED).writeScopes(List.of(scope)).build(),
        "POLICY_INVALID", "/writeScopes/0");
  }

  @Test
  void writeScopesMayUseCharacterClasses() {
    LoadedPolicy scoped = ExecutionPolicies.of(ExecutionPolicy.builder()
        .projectWrites(ProjectWriteMode.SCOPED).writeScopes(List.of("out/[a-c]/*.log", "gen/[!.]*")).build());

    assertThat(scoped.policy().writeScopes()).containsExactly("out/[a-c]/*.log", "gen/[!.]*");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/etc", "~/.bashrc", "a/../b", "{a,b}", "a[", ""})
  void refusesMalformedProtectedPaths(String entry) {
    assertRefused(ExecutionPolicy.builder().protectedPaths(List.of(".envrc", entry)).build(), "POLICY_INVALID", "/protectedPaths/1");
  }

  @Test
  void refusesADuplicateProtectedPath() {
    assertRefused(ExecutionPolicy.builder().protectedPaths(List.of("**/.envrc", "**/.envrc")).build(), "POLICY_INVALID", "/protectedPaths/1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/abs/file", "a/../b", "a//b", ".", ""})
  void refusesToolConfigurationPathsThatAreNotRepositoryRelative(String file) {
    assertRefused(ExecutionPolicy.builder()
            .executable(ExecutableRule.named("mvn").exact("-q", "test").toolConfiguration(file, ToolConfigurationPin.recorded()).build())
            .build(),
        "POLICY_INVALID", "/executables/mvn/toolConfiguration");
  }

  @Test
  void refusesAToolConfigurationPinThatIsNotASha256() {
    assertRefused(ExecutionPolicy.builder()
            .executable(ExecutableRule.named("mvn").exact("-q", "test")
                .toolConfiguration(".mvn/jvm.config", ToolConfigurationPin.sha256("ABC")).build())
            .build(),
        "POLICY_INVALID", "/executables/mvn/toolConfiguration/.mvn~1jvm.config");
  }

  @Test
  void refusesADuplicateWriteScope() {
    assertRefused(ExecutionPolicy.builder().projectWrites(ProjectWriteMode.SCOPED).writeScopes(List.of("a", "a")).build(),
        "POLICY_INVALID", "/writeScopes/1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"git.exe", "bin/git", "..", "-git", "g it", "git\u200b"})
  void refusesNamesThatAreNotBare(String name) {
    assertRefused(ExecutionPolicy.builder().executable(ExecutableRule.named(name).id("x").exact().build()).build(),
        "POLICY_INVALID", "/executables/x/name");
  }

  @ParameterizedTest
  @ValueSource(strings = {"a.b", "-x", "a/b"})
  void refusesIdsThatWouldBreakRulePaths(String id) {
    assertRefused(ExecutionPolicy.builder().executable(ExecutableRule.named("ls").id(id).exact().build()).build(),
        "POLICY_INVALID", "rule id");
  }

  @ParameterizedTest
  @ValueSource(strings = {"bin/git", "/usr/bin/../bin/git", "/", "/usr/./bin/git"})
  void refusesExecutablePathsThatAreNotAbsoluteAndNormalized(String path) {
    PolicyException e = catchThrowableOfType(PolicyException.class, () -> ExecutionPolicies.of(
        ExecutionPolicy.builder().executable(ExecutableRule.atPath("x", Path.of(path)).exact().build()).build()));

    assertThat(e.code()).isEqualTo("POLICY_INVALID");
    assertThat(e.getMessage()).contains("/executables/x/path");
  }

  @Test
  void refusesTwoRulesForOneExecutable() {
    assertRefused(ExecutionPolicy.builder()
            .executable(LS)
            .executable(ExecutableRule.named("ls").id("ls-long").exact("-l").build())
            .build(),
        "POLICY_INVALID", "both match name ls");
    assertRefused(ExecutionPolicy.builder()
            .executable(ExecutableRule.atPath("a", Path.of("/bin/ls")).exact().build())
            .executable(ExecutableRule.atPath("b", Path.of("/bin/ls")).exact("-l").build())
            .build(),
        "POLICY_INVALID", "both match path /bin/ls");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ABC", "0123", "0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF"})
  void refusesMalformedDigests(String sha256) {
    assertRefused(ExecutionPolicy.builder().executable(ExecutableRule.named("ls").sha256(sha256).exact().build()).build(),
        "POLICY_INVALID", "/executables/ls/sha256");
  }

  @ParameterizedTest
  @ValueSource(strings = {"x", "-", "--", "--a=b", "- x", "-\u0001", "-a\u202e"})
  void refusesMalformedFlags(String flag) {
    assertRefused(withRule(rules -> rules.flag(flag)), "POLICY_INVALID", "/executables/tool/arguments/flags/");
  }

  @Test
  void acceptsShortFlagsCarryingEqualsSigns() {
    assertThat(ExecutionPolicies.of(withRule(rules -> rules.flag("-Dskip=true"))).policy()).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"a.b", "-x", "", "a b"})
  void refusesMalformedSubcommandNames(String name) {
    assertRefused(withRule(rules -> rules.subcommand(name, SubcommandRule.of(ArgumentRules.builder().build()))),
        "POLICY_INVALID", "/executables/tool/arguments/subcommands/");
  }

  @Test
  void refusesInvisibleCharactersInLiterals() {
    assertRefused(withRule(rules -> rules.operands(OperandRule.any(ValueRule.literal("ok", "b\u0000ad")))),
        "POLICY_INVALID", "/executables/tool/arguments/operands/values");
  }

  @Test
  void refusesIntegerBoundsJsonCannotCarryExactly() {
    assertRefused(withRule(rules -> rules.flag("-n", FlagRule.withValue(ValueRule.integer(0, 1L << 53)))),
        "POLICY_INVALID", "/executables/tool/arguments/flags/-n/value");
    assertRefused(withRule(rules -> rules.flag("-n", FlagRule.withValue(ValueRule.integer(Long.MIN_VALUE, 0)))),
        "POLICY_INVALID", "/executables/tool/arguments/flags/-n/value");
  }

  @Test
  void aMatchExampleMustBeAllowed() {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("ls").exact().exact("-l").match("ls", "-l").match("ls", "-a").build())
        .build();

    assertRefused(policy, "POLICY_EXAMPLE_FAILED", "/executables/ls/match/1", "[\"ls\", \"-a\"]", "ARGV_NOT_ALLOWED",
        "executables.ls.exact");
  }

  @Test
  void aNotMatchExampleMustBeRefused() {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("ls").exact().exact("-l").notMatch("ls", "-R").notMatch("ls", "-l").build())
        .build();

    assertRefused(policy, "POLICY_EXAMPLE_FAILED", "/executables/ls/notMatch/1", "allowed by operator rule executables.ls.exact[1]");
  }

  @Test
  void aMatchExampleMustBeAllowedByItsOwnRule() {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("cat").exact("a").build())
        .executable(ExecutableRule.named("ls").exact().match("cat", "a").build())
        .build();

    assertRefused(policy, "POLICY_EXAMPLE_FAILED", "should be allowed by executables.ls", "allowed by operator rule executables.cat");
  }

  @Test
  void subcommandExamplesAreCheckedWhereTheyStand() {
    ArgumentRules status = ArgumentRules.builder().flag("--short").build();
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("git")
            .arguments(ArgumentRules.builder()
                .subcommand("status", new SubcommandRule(status, new PolicyExamples(
                    List.of(List.of("git", "status", "--short"), List.of("git", "status", "--long")), List.of())))
                .build())
            .build())
        .build();

    assertRefused(policy, "POLICY_EXAMPLE_FAILED", "/executables/git/arguments/subcommands/status/match/1", "FLAG_NOT_ALLOWED");
  }

  @Test
  void reportingCommandsAreOrdinaryCommandsThePolicyMayAllow() {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("echo").exact("hello").match("echo", "hello").build())
        .executable(ExecutableRule.named("printf").exact("%s\\n", "ok").build())
        .executable(ExecutableRule.named("test").exact("-f", "target/app.jar").match("test", "-f", "target/app.jar").build())
        .executable(ExecutableRule.atPath("bracket", Path.of("/usr/bin/[")).exact("-d", "src", "]").build())
        .executable(ExecutableRule.named("sleep").exact("1").match("sleep", "1").build())
        .build();

    LoadedPolicy loaded = ExecutionPolicies.of(policy);

    assertThat(loaded.policy().executables()).hasSize(5);
  }

  @ParameterizedTest
  @ValueSource(strings = {"true", "false", "exit", "TRUE"})
  void refusesARuleForAProgramThatAlwaysDoesNothing(String name) {
    assertRefused(ExecutionPolicy.builder().executable(ExecutableRule.named(name).id("noop").exact().build()).build(),
        "POLICY_RULE_NEVER_ALLOWS", "at /executables/noop:", "does nothing");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/bin/true", "/usr/bin/false", "/opt/tools/true.exe", "/opt/tools/run.cmd", "/opt/tools/x.BAT"})
  void refusesAPathRuleTheBuiltInChecksAlwaysRefuse(String path) {
    assertRefused(ExecutionPolicy.builder().executable(ExecutableRule.atPath("never", Path.of(path)).exact("x").build()).build(),
        "POLICY_RULE_NEVER_ALLOWS", "at /executables/never:", path);
  }

  @Test
  void refusesAnExactArgumentListTheBuiltInChecksAlwaysRefuse() {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .executable(ExecutableRule.named("sleep").exact("1").exact("0s").build())
        .build();

    assertRefused(policy, "POLICY_RULE_NEVER_ALLOWS", "at /executables/sleep/exact/1:", "[\"sleep\", \"0s\"]", "NOOP_COMMAND",
        "builtin.noop");
  }

  @Test
  void refusesAMatchExampleTheBuiltInChecksAlwaysRefuse() {
    ExecutionPolicy policy = withRule(rules -> rules.operands(OperandRule.any(ValueRule.integer(0, 9)))).toBuilder()
        .removeExecutable("tool")
        .executable(ExecutableRule.named("sleep")
            .arguments(ArgumentRules.builder().operands(OperandRule.between(ValueRule.integer(0, 9), 1, 1)).build())
            .match("sleep", "2").match("sleep", "0")
            .build())
        .build();

    assertRefused(policy, "POLICY_RULE_NEVER_ALLOWS", "at /executables/sleep/match/1:", "NOOP_COMMAND");
  }

  @Test
  void refusesAnOperandRuleThatAllowsNoOperand() {
    assertRefused(withRule(rules -> rules.operands(OperandRule.between(ValueRule.path(), 0, 0))),
        "POLICY_RULE_NEVER_ALLOWS", "at /executables/tool/arguments/operands/maxCount:");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-x", "--all", "--"})
  void refusesAnOperandLiteralThatIsReadAsAFlagWhereDoubleDashIsForbidden(String literal) {
    assertRefused(withRule(rules -> rules.operands(OperandRule.any(ValueRule.literal("a", literal)))),
        "POLICY_RULE_NEVER_ALLOWS", "at /executables/tool/arguments/operands/values:", literal);

    LoadedPolicy afterDoubleDash = ExecutionPolicies.of(withRule(rules -> rules
        .operands(OperandRule.any(ValueRule.literal("a", literal))).doubleDash(DoubleDashMode.OPTIONAL)));
    assertThat(afterDoubleDash.policy().executables()).hasSize(1);
  }

  @Test
  void refusesAWriteTargetInAReadOnlyPolicy() {
    assertRefused(withRule(rules -> rules.flag("--out", FlagRule.withValue(ValueRule.writePath()))),
        "POLICY_RULE_NEVER_ALLOWS", "at /executables/tool/arguments/flags/--out/value/write:", "read-only");
    assertRefused(withRule(rules -> rules.operands(OperandRule.any(ValueRule.writePath()))),
        "POLICY_RULE_NEVER_ALLOWS", "at /executables/tool/arguments/operands/write:");

    LoadedPolicy scoped = ExecutionPolicies.of(withRule(rules -> rules.flag("--out", FlagRule.withValue(ValueRule.writePath()))).toBuilder()
        .projectWrites(ProjectWriteMode.SCOPED).writeScopes(List.of("target/**")).build());
    assertThat(scoped.policy().executables()).hasSize(1);
  }

  @Test
  void refusesEmptyExamples() {
    assertRefused(ExecutionPolicy.builder().executable(ExecutableRule.named("ls").exact().match().build()).build(),
        "POLICY_INVALID", "/executables/ls/match/0");
  }

  @Test
  void theHashOfACodeBuiltPolicyIsTheHashOfItsFile() {
    ExecutionPolicy policy = ExecutionPolicy.builder().executable(LS).inheritEnvironment("PATH").build();

    LoadedPolicy fromCode = ExecutionPolicies.of(policy);
    LoadedPolicy fromFile = ExecutionPolicies.parse(ExecutionPolicies.toJson(policy), "file");

    assertThat(fromCode.source()).isEqualTo("code");
    assertThat(fromFile.hash()).isEqualTo(fromCode.hash());
  }

  @Test
  void aLoadedPolicyCannotBeForged() {
    ExecutionPolicy policy = ExecutionPolicy.builder().executable(LS).build();
    LoadedPolicy genuine = ExecutionPolicies.of(policy);
    ExecutionPolicy invalid = ExecutionPolicy.builder().inheritEnvironment("LD_PRELOAD").build();

    PolicyException wrongHash = catchThrowableOfType(PolicyException.class,
        () -> new LoadedPolicy(ExecutionPolicy.builder().build(), genuine.hash(), "forged"));
    PolicyException invalidPolicy = catchThrowableOfType(PolicyException.class,
        () -> new LoadedPolicy(invalid, genuine.hash(), "forged"));

    assertThat(wrongHash.code()).isEqualTo("POLICY_INVALID");
    assertThat(invalidPolicy.code()).isEqualTo("POLICY_ENVIRONMENT_DENIED");
    assertThat(new LoadedPolicy(policy, genuine.hash(), "elsewhere").hash()).isEqualTo(genuine.hash());
  }
}
