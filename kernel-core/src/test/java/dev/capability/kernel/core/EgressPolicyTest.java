package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.PolicyException;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The egress rule of filtered network in the policy file: read strictly, validated, and covered by the hash. */
class EgressPolicyTest {

  private static final String FILTERED = """
      {
        "version": 1,
        "network": "filtered",
        "egress": {
          "allow": ["Git.Test:8080", "[::1]:443", "203.0.113.7:22", "api.example.com:443"],
          "allowPrivateAddresses": ["git.test"]
        }
      }
      """;

  private static PolicyException refusal(String json) {
    PolicyException e = catchThrowableOfType(PolicyException.class, () -> ExecutionPolicies.parse(json, "test"));
    assertThat(e).as("a refusal of " + json).isNotNull();
    return e;
  }

  private static String withEgress(String network, String egress) {
    return "{\"version\": 1" + (network == null ? "" : ", \"network\": \"" + network + "\"") + ", \"egress\": " + egress + "}";
  }

  @Test
  void readsFilteredNetworkWithItsDestinationsAndPrivateAddressNames() {
    LoadedPolicy loaded = ExecutionPolicies.parse(FILTERED, "inline");
    ExecutionPolicy policy = loaded.policy();

    assertThat(policy.network()).isEqualTo(NetworkMode.FILTERED);
    assertThat(policy.egressAllowed()).containsExactly(
        new EgressDestination("git.test", 8080), new EgressDestination("::1", 443),
        new EgressDestination("203.0.113.7", 22), new EgressDestination("api.example.com", 443));
    assertThat(policy.egressPrivateAddressNames()).containsExactly("git.test");
    assertThat(ExecutionPolicies.parse(ExecutionPolicies.toJson(policy), "again")).satisfies(again -> {
      assertThat(again.policy()).isEqualTo(policy);
      assertThat(again.hash()).isEqualTo(loaded.hash());
    });
  }

  @Test
  void filteredNetworkWithoutAnEgressRuleAllowsNoDestination() {
    ExecutionPolicy policy = ExecutionPolicies.parse("{\"version\": 1, \"network\": \"filtered\"}", "inline").policy();

    assertThat(policy.network()).isEqualTo(NetworkMode.FILTERED);
    assertThat(policy.egressAllowed()).isEmpty();
    assertThat(ExecutionPolicies.toJson(policy)).contains("\"egress\"");
  }

  @Test
  void theHashCoversEveryDestinationAndEveryPrivateAddressName() {
    String base = ExecutionPolicies.parse(withEgress("filtered", "{\"allow\": [\"git.test:8080\"]}"), "a").hash();
    String otherPort = ExecutionPolicies.parse(withEgress("filtered", "{\"allow\": [\"git.test:8081\"]}"), "a").hash();
    String another = ExecutionPolicies.parse(withEgress("filtered", "{\"allow\": [\"git.test:8080\", \"other.test:8080\"]}"), "a").hash();
    String privateName = ExecutionPolicies.parse(
        withEgress("filtered", "{\"allow\": [\"git.test:8080\"], \"allowPrivateAddresses\": [\"git.test\"]}"), "a").hash();
    String none = ExecutionPolicies.parse("{\"version\": 1, \"network\": \"filtered\"}", "a").hash();

    assertThat(Set.of(base, otherPort, another, privateName, none)).hasSize(5);
  }

  @Test
  void policiesWithoutFilteredNetworkKeepTheirNormalFormAndHash() {
    ExecutionPolicy host = ExecutionPolicies.parse("{\"version\": 1, \"network\": \"host\"}", "a").policy();

    assertThat(ExecutionPolicies.toJson(host)).doesNotContain("egress");
    // The hash of {"version": 1} before filtered network existed.
    assertThat(ExecutionPolicies.parse("{\"version\": 1}", "a").hash())
        .isEqualTo(ExecutionPolicies.of(ExecutionPolicy.builder().build()).hash());
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "{\"allow\": [\"git.test:8080\", \"git.test\"]}|/egress/allow/1",
      "{\"allow\": [\"git.test:0\"]}|/egress/allow/0",
      "{\"allow\": [\"git.test:65536\"]}|/egress/allow/0",
      "{\"allow\": [\"*.example.com:443\"]}|/egress/allow/0",
      "{\"allow\": [\"user@git.test:443\"]}|/egress/allow/0",
      "{\"allow\": [\"git.test.:443\"]}|/egress/allow/0",
      "{\"allow\": [\"::1:443\"]}|/egress/allow/0",
      "{\"allow\": [\"[::1]443\"]}|/egress/allow/0",
      "{\"allow\": [\"[example.com]:443\"]}|/egress/allow/0",
      "{\"allow\": [\"http://git.test:80\"]}|/egress/allow/0",
      "{\"allow\": [\"git.test:80\", \"GIT.test:80\"]}|/egress/allow/1",
      "{\"allow\": [\"git.test:80\", 80]}|/egress/allow/1",
      "{\"allow\": \"git.test:80\"}|/egress/allow",
      "{}|/egress/allow",
      "{\"allow\": [], \"deny\": []}|/egress/deny",
      "{\"allow\": [\"git.test:80\"], \"allowPrivateAddresses\": [\"other.test\"]}|/egress/allowPrivateAddresses/0",
      "{\"allow\": [\"git.test:80\"], \"allowPrivateAddresses\": [\"git.test\", \"Git.test\"]}|/egress/allowPrivateAddresses/1",
      "{\"allow\": [\"git.test:80\"], \"allowPrivateAddresses\": \"git.test\"}|/egress/allowPrivateAddresses",
      "[\"git.test:80\"]|/egress",
  })
  void refusesABadEgressRuleNamingWhereItIsWrong(String egress, String pointer) {
    PolicyException e = refusal(withEgress("filtered", egress));

    assertThat(e.code()).as(e.getMessage()).isEqualTo("POLICY_INVALID");
    assertThat(e.getMessage()).startsWith("at " + pointer + ":");
  }

  @ParameterizedTest
  @CsvSource(value = {"none", "host", "''"})
  void refusesAnEgressRuleUnderAnyOtherNetwork(String network) {
    PolicyException e = refusal(withEgress(network.isEmpty() ? null : network, "{\"allow\": [\"git.test:80\"]}"));

    assertThat(e.code()).isEqualTo("POLICY_INVALID");
    assertThat(e.getMessage()).startsWith("at /egress:").contains("\"network\": \"filtered\"");
  }

  @Test
  void refusesAPolicyBuiltInCodeWithDestinationsUnderAnotherNetwork() {
    ExecutionPolicy host = ExecutionPolicy.builder()
        .network(NetworkMode.HOST)
        .egressAllowed(List.of(EgressDestination.parse("git.test:80")))
        .build();

    PolicyException e = catchThrowableOfType(PolicyException.class, () -> ExecutionPolicies.of(host));

    assertThat(e.code()).isEqualTo("POLICY_INVALID");
    assertThat(e.getMessage()).startsWith("at /egress:");
  }
}
