package dev.capability.discovery;

import static dev.capability.discovery.IndexServer.entry;
import static dev.capability.discovery.IndexServer.index;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class IndexFederationTest {
  private IndexServer server;

  @BeforeEach
  void start() throws IOException {
    server = new IndexServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private DiscoveryResult traverse(DiscoveryLimits limits, String... seeds) {
    List<URI> urls = new ArrayList<>();
    for (String seed : seeds) {
      urls.add(server.url(seed));
    }
    return IndexFederation.traverse(urls, limits, NetworkAccess.loopbackForTests());
  }

  private static List<String> codes(DiscoveryResult result) {
    return result.problems().stream().map(IndexProblem::code).toList();
  }

  @Test
  void readsLinkedIndexesBreadthFirstAndRecordsTheFederationPath() {
    server.serve("/a", index(List.of(entry("alpha", "first")), List.of("/b", "/c")))
        .serve("/b", index(List.of(entry("beta", "second")), List.of("/d")))
        .serve("/c", index(List.of(entry("gamma", "third")), List.of()))
        .serve("/d", index(List.of(entry("delta", "fourth")), List.of()));

    DiscoveryResult result = traverse(DiscoveryLimits.defaults(), "/a");

    assertThat(result.stopReason()).isEqualTo(DiscoveryCodes.INDEX_COMPLETE);
    assertThat(result.problems()).isEmpty();
    assertThat(result.visited()).containsExactly(server.url("/a"), server.url("/b"), server.url("/c"), server.url("/d"));
    FoundEntry delta = result.entries().get(3);
    assertThat(delta.entry().name()).isEqualTo("delta");
    assertThat(delta.path()).containsExactly(server.url("/a"), server.url("/b"), server.url("/d"));
    assertThat(delta.depth()).isEqualTo(2);
  }

  @Test
  void aFederationLoopIsReadOnceAndReportedAsACycle() {
    server.serve("/a", index(List.of(entry("alpha", "")), List.of("/b")))
        .serve("/b", index(List.of(entry("beta", "")), List.of("/a")));

    DiscoveryResult result = traverse(DiscoveryLimits.defaults(), "/a");

    assertThat(result.stopReason()).isEqualTo(DiscoveryCodes.INDEX_COMPLETE);
    assertThat(codes(result)).containsExactly(DiscoveryCodes.INDEX_CYCLE);
    assertThat(server.hits("/a")).isEqualTo(1);
    assertThat(server.hits("/b")).isEqualTo(1);
    assertThat(result.entries()).hasSize(2);
  }

  @Test
  void spellingsOfOneUrlAreReadOnce() {
    int port = server.port();
    server.serve("/a", index(List.of(), List.of(
            "/b", "./b", "/x/../b", "/b#fragment", "HTTP://127.0.0.1:" + port + "/%62", "http://127.0.0.1:" + port + "/./b")))
        .serve("/b", index(List.of(entry("beta", "")), List.of()));

    DiscoveryResult result = traverse(DiscoveryLimits.defaults(), "/a", "/a#top");

    assertThat(server.hits("/a")).isEqualTo(1);
    assertThat(server.hits("/b")).isEqualTo(1);
    assertThat(result.visited()).containsExactly(server.url("/a"), server.url("/b"));
    assertThat(result.problems()).isEmpty();
  }

  @Test
  void aDepthBombStopsAtTheDepthLimit() {
    for (int i = 0; i < 50; i++) {
      server.serve("/chain/" + i, index(List.of(entry("link" + i, "")), List.of("/chain/" + (i + 1))));
    }

    DiscoveryResult result = traverse(DiscoveryLimits.defaults().withMaxDepth(3), "/chain/0");

    assertThat(result.visited()).hasSize(4);
    assertThat(codes(result)).containsExactly(DiscoveryCodes.INDEX_DEPTH_EXCEEDED);
    assertThat(result.problems().get(0).index()).isEqualTo(server.url("/chain/4"));
    assertThat(server.hits("/chain/4")).isZero();
    assertThat(result.stopReason()).isEqualTo(DiscoveryCodes.INDEX_COMPLETE);
  }

  @Test
  void aBreadthBombStopsAtTheIndexCount() {
    List<String> links = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      links.add("/wide/" + i);
      server.serve("/wide/" + i, index(List.of(entry("wide" + i, "")), List.of()));
    }
    server.serve("/root", index(List.of(), links));

    DiscoveryResult result = traverse(DiscoveryLimits.defaults().withMaxIndexes(10), "/root");

    assertThat(result.stopReason()).isEqualTo(DiscoveryCodes.INDEX_COUNT_EXCEEDED);
    assertThat(result.visited()).hasSize(10);
    assertThat(server.hits("/wide/9")).isZero();
    assertThat(result.entries()).hasSize(9);
  }

  @Test
  void aDocumentThatNeverEndsIsAbandonedAtTheDocumentLimitAndTheTraversalGoesOn() {
    server.serve("/a", index(List.of(), List.of("/endless", "/b")))
        .serve("/b", index(List.of(entry("beta", "")), List.of()))
        .handle("/endless", exchange -> {
          exchange.sendResponseHeaders(200, 0); // chunked, no length
          byte[] chunk = " ".repeat(4096).getBytes(StandardCharsets.US_ASCII);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write('[');
            while (true) {
              out.write(chunk);
            }
          } catch (IOException expected) {
            // the client hung up, as it should
          }
        });

    DiscoveryResult result = traverse(DiscoveryLimits.defaults().withMaxDocumentBytes(64 * 1024), "/a");

    assertThat(codes(result)).containsExactly(DiscoveryCodes.INDEX_TOO_LARGE);
    assertThat(result.problems().get(0).index()).isEqualTo(server.url("/endless"));
    assertThat(result.visited()).containsExactly(server.url("/a"), server.url("/b"));
    assertThat(result.stopReason()).isEqualTo(DiscoveryCodes.INDEX_COMPLETE);
  }

  @Test
  void aDeclaredLengthOverTheLimitIsRefusedBeforeReading() {
    String big = index(List.of(entry("big", "x".repeat(1500))), List.of());
    server.serve("/big", big);

    DiscoveryResult result = traverse(DiscoveryLimits.defaults().withMaxDocumentBytes(1000), "/big");

    assertThat(codes(result)).containsExactly(DiscoveryCodes.INDEX_TOO_LARGE);
    assertThat(result.entries()).isEmpty();
  }

  @Test
  void theTotalByteLimitEndsTheTraversal() {
    String padding = "x".repeat(1900);
    List<String> links = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      links.add("/part/" + i);
      server.serve("/part/" + i, index(List.of(entry("part" + i, padding)), List.of()));
    }
    server.serve("/root", index(List.of(), links));

    DiscoveryResult result = traverse(DiscoveryLimits.defaults().withMaxTotalBytes(7000), "/root");

    assertThat(result.stopReason()).isEqualTo(DiscoveryCodes.INDEX_BYTES_EXCEEDED);
    assertThat(result.entries()).hasSizeLessThan(4);
    assertThat(server.hits("/part/5")).isZero();
  }

  @Test
  void bytesOfBodiesThatFailHalfwayCountTowardsTheTotal() {
    List<String> links = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      links.add("/broken/" + i);
      server.handle("/broken/" + i, exchange -> {
        exchange.sendResponseHeaders(200, 5000);
        OutputStream out = exchange.getResponseBody();
        out.write(new byte[3000]);
        out.flush(); // 2000 bytes short: the server ends the connection when the handler returns
      });
    }
    server.serve("/root", index(List.of(), links));

    DiscoveryResult result = traverse(DiscoveryLimits.defaults().withMaxTotalBytes(7000), "/root");

    assertThat(result.stopReason()).isEqualTo(DiscoveryCodes.INDEX_BYTES_EXCEEDED);
    // 3000 bytes of the first failure counted: the second declares more than the 3800 or so left
    assertThat(codes(result)).containsExactly(DiscoveryCodes.INDEX_UNREACHABLE, DiscoveryCodes.INDEX_BYTES_EXCEEDED);
    assertThat(server.hits("/broken/2")).isZero();
  }

  @Test
  void aSlowDocumentRunsOutTheTimeBudgetAndWhatWasFoundIsKept() {
    server.serve("/a", index(List.of(entry("alpha", "")), List.of("/slow", "/b")))
        .serve("/b", index(List.of(entry("beta", "")), List.of()))
        .handle("/slow", exchange -> {
          exchange.sendResponseHeaders(200, 0);
          try (OutputStream out = exchange.getResponseBody()) {
            for (int i = 0; i < 600; i++) {
              out.write(' ');
              out.flush();
              Thread.sleep(100);
            }
          } catch (IOException | InterruptedException expected) {
            // the client gave up
          }
        });

    DiscoveryResult result = traverse(DiscoveryLimits.defaults().withTimeBudget(Duration.ofSeconds(2)), "/a");

    assertThat(result.stopReason()).isEqualTo(DiscoveryCodes.INDEX_TIME_EXCEEDED);
    assertThat(codes(result)).containsExactly(DiscoveryCodes.INDEX_TIME_EXCEEDED);
    assertThat(result.entries()).extracting(found -> found.entry().name()).containsExactly("alpha");
    assertThat(server.hits("/b")).isZero();
  }

  @Test
  void loopbackIsRefusedWithoutTheAllowanceAndNothingIsRequested() {
    server.serve("/a", index(List.of(entry("alpha", "")), List.of()));
    NetworkAccess httpOnly = new NetworkAccess(true, false, false);

    DiscoveryResult byAddress = IndexFederation.traverse(List.of(server.url("/a")), DiscoveryLimits.defaults(), httpOnly);
    DiscoveryResult byName = IndexFederation.traverse(
        List.of(URI.create("http://localhost:" + server.port() + "/a")), DiscoveryLimits.defaults(), httpOnly);

    assertThat(codes(byAddress)).containsExactly(DiscoveryCodes.INDEX_ADDRESS_REFUSED);
    assertThat(codes(byName)).containsExactly(DiscoveryCodes.INDEX_ADDRESS_REFUSED);
    assertThat(server.hits("/a")).isZero();
  }

  @Test
  void privateLinkLocalAndUniqueLocalLinksAreRefusedEvenWhenLoopbackIsAllowed() {
    server.serve("/a", index(List.of(), List.of(
        "http://10.1.2.3/i", "http://169.254.169.254/latest/meta-data", "http://192.168.1.1/i",
        "http://[fd00::1]/i", "http://[fe80::1]/i", "http://[::ffff:10.0.0.1]/i", "http://100.64.0.1/i")));

    DiscoveryResult result = traverse(DiscoveryLimits.defaults().withMaxIndexes(20), "/a");

    assertThat(codes(result)).hasSize(7).containsOnly(DiscoveryCodes.INDEX_ADDRESS_REFUSED);
  }

  @Test
  void plainHttpIsRefusedUnlessAllowed() {
    server.serve("/a", index(List.of(entry("alpha", "")), List.of()));

    DiscoveryResult result = IndexFederation.traverse(
        List.of(server.url("/a")), DiscoveryLimits.defaults(), new NetworkAccess(false, true, false));

    assertThat(codes(result)).containsExactly(DiscoveryCodes.INDEX_SCHEME_REFUSED);
    assertThat(server.hits("/a")).isZero();
  }

  @Test
  void redirectsAreNotFollowed() {
    server.serve("/b", index(List.of(entry("beta", "")), List.of()))
        .handle("/a", exchange -> {
          exchange.getResponseHeaders().set("Location", server.url("/b").toString());
          exchange.sendResponseHeaders(302, -1);
        });

    DiscoveryResult result = traverse(DiscoveryLimits.defaults(), "/a");

    assertThat(codes(result)).containsExactly(DiscoveryCodes.INDEX_REDIRECT);
    assertThat(server.hits("/b")).isZero();
  }

  @Test
  void aMalformedIndexIsAProblemAndItsNeighboursAreStillRead() {
    server.serve("/a", index(List.of(), List.of("/dup", "/unknown", "/b", "/missing")))
        .serve("/dup", "{\"format\":\"capability-index/1\",\"entries\":[],\"entries\":[]}")
        .serve("/unknown", "{\"format\":\"capability-index/1\",\"trusted\":true}")
        .serve("/b", index(List.of(entry("beta", "")), List.of()));

    DiscoveryResult result = traverse(DiscoveryLimits.defaults(), "/a");

    assertThat(codes(result)).containsExactly(
        DiscoveryCodes.INDEX_INVALID, DiscoveryCodes.INDEX_INVALID, DiscoveryCodes.INDEX_UNREACHABLE);
    assertThat(result.entries()).extracting(found -> found.entry().name()).containsExactly("beta");
  }

  @Test
  void seedsWithUserInformationAreRefused() {
    DiscoveryResult result = IndexFederation.traverse(
        List.of(URI.create("http://user:secret@127.0.0.1:" + server.port() + "/a")),
        DiscoveryLimits.defaults(), NetworkAccess.loopbackForTests());

    assertThat(codes(result)).containsExactly(DiscoveryCodes.INDEX_URL_INVALID);
    assertThat(result.problems().get(0).message()).doesNotContain("secret");
  }

  @Test
  void problemsWithLinksCarryingTokensNameTheIndexWithoutThem() {
    server.serve("/a", index(List.of(), List.of("/gone?access_token=s3cret", "/broken?sig=s3cret")))
        .serve("/broken", "not json");

    DiscoveryResult result = IndexFederation.traverse(List.of(server.url("/a")), DiscoveryLimits.defaults(), NetworkAccess.loopbackForTests());

    assertThat(server.hits("/gone")).isEqualTo(1);
    assertThat(result.problems()).extracting(problem -> problem.index().toString())
        .containsExactlyInAnyOrder(server.url("/gone?access_token=redacted").toString(), server.url("/broken?sig=redacted").toString());
    assertThat(result.problems()).extracting(IndexProblem::message)
        .allSatisfy(message -> assertThat(message).contains("127.0.0.1:" + server.port()).doesNotContain("s3cret"));
  }
}
