package dev.capability.backend.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Event;
import dev.capability.backend.docker.internal.DockerClients;
import dev.capability.kernel.api.Sha256;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.backend.LaunchFailedException;
import dev.capability.kernel.api.backend.LaunchResult;
import dev.capability.kernel.api.backend.LaunchSpec;
import dev.capability.kernel.api.backend.PinnedExecutable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Arguments beyond what an {@code execve} in the container accepts are refused with a code before
 * the daemon hears of them; arguments just within the limit run.
 */
class DockerArgumentLimitTest {
  private static final DockerClient CLIENT = DockerClients.fromEnvironment();
  private static final Pattern LIMIT = Pattern.compile("(\\d+) bytes of arguments and environment per command");

  @AfterAll
  static void close() throws IOException {
    CLIENT.close();
  }

  private static ExecutionBackend backend() {
    return DockerGate.GATE.backend();
  }

  private static long limit() {
    Matcher m = LIMIT.matcher(backend().diagnostics().getOrDefault("argument-limit", ""));
    assertThat(m.find()).as("diagnostics %s", backend().diagnostics()).isTrue();
    return Long.parseLong(m.group(1));
  }

  private static LaunchSpec perl(List<String> arguments) throws IOException {
    Path perl = Path.of("/usr/bin/perl").toRealPath();
    List<String> argv = new ArrayList<>(List.of("-e", "print scalar(@ARGV)"));
    argv.addAll(arguments);
    return LaunchSpec.builder(
            new PinnedExecutable(
                perl, Sha256.hex(Files.readAllBytes(perl)), perl.toString(), PinnedExecutable.Pinning.PROC_FD))
        .arguments(argv)
        .environment(Map.of("PATH", "/usr/bin:/bin"))
        .workingDirectory(Path.of("/usr"))
        .timeout(Duration.ofSeconds(120))
        .build();
  }

  /** Arguments of 64 KiB each whose strings, NUL bytes and pointers come to about {@code bytes}. */
  private static List<String> argumentsOf(long bytes) {
    int each = 64 * 1024;
    return Collections.nCopies((int) (bytes / (each + 9)), "a".repeat(each));
  }

  @Test
  void anArgumentListOverTheLimitIsRefusedWithACodeBeforeTheDaemonHearsOfIt() throws Exception {
    long limit = limit();
    LaunchSpec spec = perl(argumentsOf(limit + 256 * 1024));
    Instant before = Instant.now();

    assertThatThrownBy(() -> backend().launch(spec))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("over the " + limit + " an execve")
        .hasMessageContaining("refused before anything was started");
    assertThat(containerEventsOfThisJvmSince(before)).as("the daemon's events for this JVM").isEmpty();
  }

  @Test
  void oneArgumentOverWhatLinuxAllowsOneStringIsRefused() throws IOException {
    LaunchSpec spec = perl(List.of("b".repeat(128 * 1024)));

    assertThatThrownBy(() -> backend().launch(spec))
        .isInstanceOfSatisfying(
            LaunchFailedException.class,
            e -> assertThat(e.code()).isEqualTo(LaunchFailedException.ARGUMENT_LIST_TOO_LONG))
        .hasMessageContaining("an argument of /usr/bin/perl takes 131073 bytes, over the 131072");
  }

  @Test
  void anArgumentListJustWithinTheLimitRuns() throws IOException {
    List<String> arguments = argumentsOf(limit() - 32 * 1024);

    LaunchResult result = backend().launch(perl(arguments));

    assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
    assertThat(result.stdout().text()).isEqualTo(Integer.toString(arguments.size()));
  }

  private static long nanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }

  private static List<Event> containerEventsOfThisJvmSince(Instant since) throws InterruptedException {
    String jvm =
        ProcessHandle.current().pid() + ":" + dev.capability.backend.support.ProcTable.read(ProcessHandle.current().pid()).orElseThrow().startTicks();
    List<Event> events = Collections.synchronizedList(new ArrayList<>());
    ResultCallback.Adapter<Event> callback =
        CLIENT.eventsCmd()
            .withSince(Long.toString(since.getEpochSecond() - 1))
            .withUntil(Long.toString(Instant.now().getEpochSecond() + 1))
            .withLabelFilter(Map.of("dev.capability.jvm", jvm))
            .exec(
                new ResultCallback.Adapter<>() {
                  @Override
                  public void onNext(Event event) {
                    if (event.getTimeNano() != null && event.getTimeNano() >= nanos(since)) {
                      events.add(event);
                    }
                  }
                });
    assertThat(callback.awaitCompletion(60, TimeUnit.SECONDS)).as("the daemon's event stream ended").isTrue();
    return events;
  }
}
