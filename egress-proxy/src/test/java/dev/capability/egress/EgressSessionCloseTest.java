package dev.capability.egress;

import static dev.capability.egress.TestResolver.address;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.capability.kernel.api.network.EgressConnection;
import dev.capability.kernel.api.network.EgressConnection.Outcome;
import dev.capability.kernel.api.network.EgressDestination;
import dev.capability.kernel.api.network.EgressRefusal;
import dev.capability.kernel.api.network.EgressLimits;
import dev.capability.kernel.api.network.EgressRules;
import dev.capability.kernel.api.network.EgressSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Closing a session ends its threads and connections and removes its socket. */
@Timeout(60)
class EgressSessionCloseTest {
  private static final String NAME = "granted.test";

  @TempDir Path temp;

  @Test
  void closingEndsEveryThreadAndConnectionAndRemovesTheSocket() throws IOException {
    try (EchoServer echo = new EchoServer()) {
      EgressSession session = new NettyEgressGateway(new TestResolver(Map.of(NAME, List.of(address("127.0.0.1")))), temp)
          .open(new EgressRules(List.of(new EgressDestination(NAME, echo.port())), Set.of(NAME), EgressLimits.DEFAULT));
      Path socket = session.socket();
      String threadPrefix = socket.getParent().getFileName() + "-";
      ProxyClient open = ProxyClient.connect(socket);
      open.send("CONNECT " + NAME + ":" + echo.port() + " HTTP/1.1\r\n\r\n");
      assertThat(open.readHead()).startsWith("HTTP/1.1 200");
      ProxyClient handshaking = ProxyClient.connect(socket);
      assertThat(handshaking.socksGreeting()).as("greeted, the request still to come").isZero();
      assertThat(sessionThreads(threadPrefix)).as("threads while open").isNotEmpty();

      session.close();

      assertThat(open.readToEnd()).as("the relayed connection ends").isEmpty();
      assertThat(handshaking.readToEnd()).as("the connection in its handshake ends").isEmpty();
      open.close();
      handshaking.close();
      assertThat(sessionThreads(threadPrefix)).as("threads after close").isEmpty();
      assertThat(socket).doesNotExist();
      assertThat(socket.getParent()).doesNotExist();
      assertThatThrownBy(() -> ProxyClient.connect(socket)).isInstanceOf(IOException.class);
      assertThat(Files.list(temp)).isEmpty();
      assertThat(session.connections()).as("the records outlive the session")
          .extracting(EgressConnection::outcome, EgressConnection::reason)
          .containsExactly(tuple(Outcome.ALLOWED, null), tuple(Outcome.REFUSED, EgressRefusal.MALFORMED));
    }
  }

  @Test
  void closingTwiceIsHarmless() {
    EgressSession session = new NettyEgressGateway(host -> List.of(), temp).open(EgressRules.allowing(List.of()));

    session.close();
    session.close();

    assertThat(session.socket()).doesNotExist();
  }

  private static List<String> sessionThreads(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.startsWith(prefix))
        .toList();
  }
}
