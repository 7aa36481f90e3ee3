package dev.capability.openapi.invoker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class HttpOperationInvokerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void isOneClassFileSoTheImporterCanCopyIt() {
    assertThat(HttpOperationInvoker.class.getNestMembers()).containsExactly(HttpOperationInvoker.class);
    assertThat(HttpOperationInvoker.class.getDeclaredClasses()).isEmpty();
  }

  @Test
  void readsMembersAsRawTextAndDecodesStrings() {
    Map<String, String> members = HttpOperationInvoker.object(" {\"a\" : {\"x\":[1,{\"y\":\"}\"}]}, \"b\":\"q\\\"\\u00e9\\n\", \"c\":-1.5e3, \"d\":null } ", "input");

    assertThat(members).containsOnlyKeys("a", "b", "c", "d");
    assertThat(members.get("a")).isEqualTo("{\"x\":[1,{\"y\":\"}\"}]}");
    assertThat(HttpOperationInvoker.scalar(members.get("b"), "b")).isEqualTo("q\"é\n");
    assertThat(HttpOperationInvoker.scalar(members.get("c"), "c")).isEqualTo("-1.5e3");
    assertThat(HttpOperationInvoker.scalar(members.get("d"), "d")).isNull();
  }

  @Test
  void refusesWhatIsNotOneObject() {
    assertThatThrownBy(() -> HttpOperationInvoker.object("{\"a\":1,\"a\":2}", "input")).hasMessageContaining("twice");
    assertThatThrownBy(() -> HttpOperationInvoker.object("{\"a\":1} {}", "input")).hasMessageContaining("trailing");
    assertThatThrownBy(() -> HttpOperationInvoker.object("[1]", "input")).hasMessageContaining("must be an object");
    assertThatThrownBy(() -> HttpOperationInvoker.object("{\"a\":\"open}", "input")).hasMessageContaining("unterminated");
    assertThatThrownBy(() -> HttpOperationInvoker.object("{\"a\":" + "[".repeat(100) + "]".repeat(100) + "}", "input"))
        .hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> HttpOperationInvoker.scalar("[1]", "p")).hasMessageContaining("string, number or boolean");
  }

  @Property(tries = 200)
  void decodesEveryStringJacksonWrites(@ForAll String text) throws Exception {
    String json = "{\"k\":" + JSON.writeValueAsString(text) + "}";

    assertThat(HttpOperationInvoker.scalar(HttpOperationInvoker.object(json, "input").get("k"), "k")).isEqualTo(text);
  }
}
