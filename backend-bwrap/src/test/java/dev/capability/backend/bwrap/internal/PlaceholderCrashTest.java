package dev.capability.backend.bwrap.internal;

import static dev.capability.backend.bwrap.internal.Sandboxes.openDirectory;
import static dev.capability.backend.bwrap.internal.Sandboxes.script;
import static dev.capability.backend.bwrap.internal.Sandboxes.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.capability.backend.tck.BackendGate;
import dev.capability.kernel.api.backend.LaunchResult;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Placeholders of masked absent protected paths against a host JVM killed mid-run and against
 * concurrent runs on one repository, with the real bwrap.
 */
class PlaceholderCrashTest {
  @TempDir Path tmp;

  @Test
  void aRunKilledWithItsJvmLeavesNothingAfterTheNextRunAndNoFileWhereTheLedgerGoes()
      throws Exception {
    try (BackendGate gate = Sandboxes.gate()) {
      gate.backend();
    }
    openDirectory(tmp);
    Path work = openDirectory(tmp.resolve("work"));
    Path repo = openDirectory(tmp.resolve("repo"));
    Path writable = Sandboxes.writableBy(repo.resolve("out"), Sandboxes.identity());
    Path bin = openDirectory(tmp.resolve("bin"));
    Path bashrc = writable.resolve(".bashrc");
    Path ledger = writable.resolve(".capability");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    ProcessBuilder builder =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                classPath,
                PlaceholderCrashMain.class.getName(),
                work.toString(),
                repo.toString(),
                writable.toString(),
                openDirectory(tmp.resolve("child-bin")).toString(),
                bashrc.toString(),
                ledger.resolve("state.db").toString())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.to(tmp.resolve("stderr").toFile()));
    Process child = builder.start();
    try {
      while (!Files.exists(writable.resolve("started")) && child.isAlive()) {
        Thread.sleep(50);
      }
      assertThat(child.isAlive())
          .as("the child JVM runs its sandbox: %s", Files.readString(tmp.resolve("stderr")))
          .isTrue();
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    if (Files.exists(ledger, LinkOption.NOFOLLOW_LINKS)) {
      assertThat(ledger)
          .as("a leftover mount point where the ledger lives is a directory the ledger can use")
          .isDirectory();
    }
    try (BwrapBackend next = Sandboxes.backend(Map.of(BwrapSettings.WORK_DIR, work.toString()))) {
      LaunchResult result =
          next.launch(
              spec(script(bin, "echo pwn > out/.bashrc 2>/dev/null && echo wrote; echo ran"), repo)
                  .writableRoots(List.of(writable))
                  .protectedPaths(List.of(bashrc))
                  .build());
      assertThat(result.stdout().text()).isEqualTo("ran\n");
    }
    assertThat(bashrc).as("the dead run's placeholder is gone").doesNotExist();
    assertThat(ledger).as("the dead run's placeholder is gone").doesNotExist();
  }

  @Test
  void concurrentRunsMaskingTheSamePathBothCompleteAndLeaveNoPlaceholder() throws Exception {
    try (BackendGate gate = Sandboxes.gate()) {
      var backend = gate.backend();
      openDirectory(tmp);
      Path repo = openDirectory(tmp.resolve("repo"));
      Path writable = Sandboxes.writableBy(repo.resolve("out"), Sandboxes.identity());
      Path bin = openDirectory(tmp.resolve("bin"));
      Path bashrc = writable.resolve(".bashrc");
      Path github = writable.resolve(".github");
      List<CompletableFuture<LaunchResult>> runs = new ArrayList<>();
      for (String name : List.of("a", "b")) {
        String other = name.equals("a") ? "b" : "a";
        // Both sandboxes are up before either ends; then each tries the masked paths while the
        // other may already have ended.
        String body =
            "touch out/started-"
                + name
                + "\nuntil [ -e out/started-"
                + other
                + " ]; do sleep 0.05; done\n"
                + "touch out/done-"
                + name
                + "\nfor i in 1 2 3 4 5 6 7 8 9 10; do\n"
                + "  echo pwn > out/.bashrc 2>/dev/null && echo wrote\n"
                + "  mkdir -p out/.github/workflows 2>/dev/null && echo made\n"
                + "  [ -e out/done-"
                + other
                + " ] && break; sleep 0.05\ndone\necho ran\n";
        Path scripts = openDirectory(bin.resolve(name));
        runs.add(
            CompletableFuture.supplyAsync(
                () ->
                    backend.launch(
                        spec(script(scripts, body), repo)
                            .writableRoots(List.of(writable))
                            .protectedPaths(
                                List.of(bashrc, github.resolve("workflows").resolve("ci.yml")))
                            .build())));
      }
      for (CompletableFuture<LaunchResult> run : runs) {
        LaunchResult result = run.get(120, TimeUnit.SECONDS);
        assertThat(result.exitCode()).as(result.stderr().text()).hasValue(0);
        assertThat(result.stdout().text()).isEqualTo("ran\n");
      }
      assertThat(bashrc).doesNotExist();
      assertThat(github).doesNotExist();
    }
  }
}
