package dev.capability.kernel.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.capability.kernel.api.PolicyException;
import dev.capability.testing.Ownership;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.AbstractThrowableAssert;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checks a policy file must pass before it is parsed, on real files with real permissions. */
class ExecutionPoliciesLoadTest {

  private static final String MINIMAL = "{\"version\": 1}";
  private static final int NOBODY = 65534;

  @TempDir Path temp;
  private Path dir;

  @BeforeEach
  void realDirectory() throws IOException {
    dir = temp.toRealPath();
  }

  private static Path write(Path file, String content, String permissions) throws IOException {
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    return file;
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertLoadFails(Path file, @Nullable Path repository, String code) {
    return assertThatThrownBy(() -> ExecutionPolicies.load(file, repository))
        .isInstanceOf(PolicyException.class)
        .satisfies(e -> assertThat(((PolicyException) e).code()).as(e.getMessage()).isEqualTo(code));
  }

  @Test
  void loadsAFileThatPassesEveryCheck() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL, "rw-r--r--");

    LoadedPolicy loaded = ExecutionPolicies.load(file, null);

    assertThat(loaded.source()).isEqualTo(file.toString());
    assertThat(loaded.policy().executables()).isEmpty();
    assertThat(loaded.hash()).isEqualTo(ExecutionPolicies.parse(MINIMAL, "x").hash());
  }

  @Test
  void readsAnOperatorFileWithThePolicyChecksAndNamesItInTheirMessages() throws IOException {
    Path file = write(dir.resolve("evaluation.json"), "{\"anything\": 1}", "rw-r--r--");

    assertThat(ExecutionPolicies.readOperatorFile(file, null, "evaluation configuration")).isEqualTo("{\"anything\": 1}");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-r--"));
    assertThatThrownBy(() -> ExecutionPolicies.readOperatorFile(file, null, "evaluation configuration"))
        .isInstanceOfSatisfying(PolicyException.class, e -> assertThat(e.code()).isEqualTo("POLICY_WRITABLE_BY_OTHERS"))
        .hasMessageContaining("the evaluation configuration file");
  }

  @Test
  void refusesARelativePath() {
    assertLoadFails(Path.of("policy.json"), null, "POLICY_PATH_NOT_ABSOLUTE");
  }

  @Test
  void refusesAMissingFile() {
    assertLoadFails(dir.resolve("absent.json"), null, "POLICY_NOT_FOUND");
  }

  @Test
  void refusesASymbolicLinkToTheFile() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL, "rw-r--r--");
    Path link = Files.createSymbolicLink(dir.resolve("link.json"), file);

    assertLoadFails(link, null, "POLICY_PATH_NOT_CANONICAL").hasMessageContaining(file.toString());
  }

  @Test
  void refusesASymbolicLinkAnywhereInThePath() throws IOException {
    Path real = Files.createDirectory(dir.resolve("real"));
    write(real.resolve("policy.json"), MINIMAL, "rw-r--r--");
    Path linkedDir = Files.createSymbolicLink(dir.resolve("linked"), real);

    assertLoadFails(linkedDir.resolve("policy.json"), null, "POLICY_PATH_NOT_CANONICAL");
  }

  @Test
  void refusesDotAndDotDotSegments() throws IOException {
    Path sub = Files.createDirectory(dir.resolve("sub"));
    write(dir.resolve("policy.json"), MINIMAL, "rw-r--r--");

    assertLoadFails(sub.resolve("..").resolve("policy.json"), null, "POLICY_PATH_NOT_CANONICAL");
    assertLoadFails(dir.resolve(".").resolve("policy.json"), null, "POLICY_PATH_NOT_CANONICAL");
  }

  @Test
  void refusesAFileInsideTheRepository() throws IOException {
    Path repository = Files.createDirectories(dir.resolve("repo"));
    Path nested = Files.createDirectories(repository.resolve(".config/deep"));
    Path file = write(nested.resolve("policy.json"), MINIMAL, "rw-r--r--");
    Path repositoryLink = Files.createSymbolicLink(dir.resolve("repo-link"), repository);

    assertLoadFails(file, repository, "POLICY_INSIDE_REPOSITORY");
    assertLoadFails(file, repositoryLink, "POLICY_INSIDE_REPOSITORY");
    assertLoadFails(file, repository.resolve(".config/../"), "POLICY_INSIDE_REPOSITORY");
  }

  @Test
  void acceptsAFileBesideTheRepositoryWithASharedNamePrefix() throws IOException {
    Path repository = Files.createDirectories(dir.resolve("repo"));
    Path besides = Files.createDirectories(dir.resolve("repository-policies"));
    Path file = write(besides.resolve("policy.json"), MINIMAL, "rw-r--r--");

    assertThat(ExecutionPolicies.load(file, repository).policy()).isNotNull();
  }

  @Test
  void refusesADirectory() throws IOException {
    Path directory = Files.createDirectory(dir.resolve("policy.json"));

    assertLoadFails(directory, null, "POLICY_NOT_REGULAR_FILE");
  }

  @Test
  void refusesAFifoWithoutOpeningIt() throws Exception {
    Path fifo = dir.resolve("policy.fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", "-m", "600", fifo.toString()).inheritIO().start();
    assertThat(mkfifo.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();

    // Opening a FIFO for reading would block until a writer came; the check must come first.
    assertLoadFails(fifo, null, "POLICY_NOT_REGULAR_FILE");
  }

  @Test
  void refusesAFileWithASecondHardLink() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL, "rw-r--r--");
    Files.createLink(dir.resolve("elsewhere.json"), file);

    assertLoadFails(file, null, "POLICY_NOT_REGULAR_FILE").hasMessageContaining("hard links");
  }

  @Test
  void refusesAFileOwnedByAnotherUser() throws IOException {
    assumeThat(Ownership.currentUid()).as("changing a file's owner needs root").isZero();
    Path file = write(dir.resolve("policy.json"), MINIMAL, "rw-r--r--");
    Files.setAttribute(file, "unix:uid", NOBODY);

    assertLoadFails(file, null, "POLICY_NOT_OWNED").hasMessageContaining(String.valueOf(NOBODY));
  }

  @Test
  void refusesAGroupWritableFile() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL, "rw-rw-r--");

    assertLoadFails(file, null, "POLICY_WRITABLE_BY_OTHERS").hasMessageContaining("664");
  }

  @Test
  void refusesAWorldWritableFile() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL, "rw-r--rw-");

    assertLoadFails(file, null, "POLICY_WRITABLE_BY_OTHERS");
  }

  @Test
  void refusesAFileUnderAWorldWritableDirectory() throws IOException {
    Path open = Files.createDirectory(dir.resolve("open"));
    Path file = write(open.resolve("policy.json"), MINIMAL, "rw-r--r--");
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertLoadFails(file, null, "POLICY_PARENT_WRITABLE").hasMessageContaining(open.toString());
  }

  @Test
  void refusesAFileUnderAGroupWritableDirectoryHigherUp() throws IOException {
    Path shared = Files.createDirectory(dir.resolve("shared"));
    Path inner = Files.createDirectory(shared.resolve("inner"));
    Path file = write(inner.resolve("policy.json"), MINIMAL, "rw-r--r--");
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxr-x"));

    assertLoadFails(file, null, "POLICY_PARENT_WRITABLE").hasMessageContaining(shared.toString());
  }

  @Test
  void acceptsAFileUnderAStickyWorldWritableDirectory() throws IOException {
    Path sticky = Files.createDirectory(dir.resolve("sticky"));
    Path file = write(sticky.resolve("policy.json"), MINIMAL, "rw-r--r--");
    Files.setAttribute(sticky, "unix:mode", 01777);

    assertThat(ExecutionPolicies.load(file, null).policy()).isNotNull();
  }

  @Test
  void refusesAFileUnderADirectoryOwnedByAnotherUser() throws IOException {
    assumeThat(Ownership.currentUid()).as("changing a directory's owner needs root").isZero();
    Path foreign = Files.createDirectory(dir.resolve("foreign"));
    Path file = write(foreign.resolve("policy.json"), MINIMAL, "rw-r--r--");
    Files.setAttribute(foreign, "unix:uid", NOBODY);

    assertLoadFails(file, null, "POLICY_PARENT_WRITABLE").hasMessageContaining(String.valueOf(NOBODY));
  }

  @Test
  void refusesAFileWithoutOwnerReadPermissionEvenForRoot() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL, "-w-------");

    assertLoadFails(file, null, "POLICY_UNREADABLE");
  }

  @Test
  void refusesAFileLargerThanOneMebibyte() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL + " ".repeat((1 << 20) + 1 - MINIMAL.length()), "rw-r--r--");

    assertLoadFails(file, null, "POLICY_TOO_LARGE");
  }

  @Test
  void acceptsAFileOfExactlyOneMebibyte() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL + " ".repeat((1 << 20) - MINIMAL.length()), "rw-r--r--");

    assertThat(Files.size(file)).isEqualTo(1 << 20);
    assertThat(ExecutionPolicies.load(file, null).policy()).isNotNull();
  }

  @Test
  void refusesAFileWhoseContentDiffersFromWhatItsAttributesSaid() {
    // Files under /proc report size 0 yet have content: the read does not match the checked state.
    Path status = Path.of("/proc", String.valueOf(ProcessHandle.current().pid()), "status");

    assertLoadFails(status, null, "POLICY_CHANGED");
  }

  @Test
  void refusesBytesThatAreNotUtf8() throws IOException {
    Path file = dir.resolve("policy.json");
    Files.write(file, new byte[] {'{', '"', 'v', (byte) 0xC3, '"', ':', '1', '}'});

    assertLoadFails(file, null, "POLICY_INVALID").hasMessageContaining("not UTF-8 at byte offset 3");
  }

  @Test
  void refusesAByteOrderMark() throws IOException {
    Path file = dir.resolve("policy.json");
    Files.write(file, ("\uFEFF" + MINIMAL).getBytes(StandardCharsets.UTF_8));

    assertLoadFails(file, null, "POLICY_INVALID");
  }

  @Test
  void anInvalidFileNeverYieldsAPolicy() throws IOException {
    Path file = write(dir.resolve("policy.json"), "{\"version\": 1, \"executables\": {\"ls\": {\"name\": \"ls\"", "rw-r--r--");

    assertLoadFails(file, null, "POLICY_INVALID").hasMessageContaining("line 1");
  }

  @Test
  void findsTheFileThroughTheEnvironment() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL, "rw-r--r--");

    LoadedPolicy loaded = ExecutionPolicies.fromEnvironment(Map.of("CAPABILITY_EXECUTION_POLICY_PATH", file.toString()), null);

    assertThat(loaded.source()).isEqualTo(file.toString());
  }

  @Test
  void refusesAnUnsetOrEmptyPolicyVariable() {
    assertThatThrownBy(() -> ExecutionPolicies.fromEnvironment(Map.of(), null))
        .isInstanceOfSatisfying(PolicyException.class, e -> assertThat(e.code()).isEqualTo("POLICY_PATH_UNSET"));
    assertThatThrownBy(() -> ExecutionPolicies.fromEnvironment(Map.of("CAPABILITY_EXECUTION_POLICY_PATH", ""), null))
        .isInstanceOfSatisfying(PolicyException.class, e -> assertThat(e.code()).isEqualTo("POLICY_PATH_UNSET"));
  }

  @Test
  void theEnvironmentPathGetsTheSameChecks() {
    assertThatThrownBy(() -> ExecutionPolicies.fromEnvironment(
            Map.of("CAPABILITY_EXECUTION_POLICY_PATH", "policies/policy.json"), null))
        .isInstanceOfSatisfying(PolicyException.class, e -> assertThat(e.code()).isEqualTo("POLICY_PATH_NOT_ABSOLUTE"));
  }

  @Test
  void reloadingAnUnchangedFileGivesTheSamePolicy() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL, "rw-r--r--");

    LoadedPolicy first = ExecutionPolicies.load(file, null);

    assertThat(ExecutionPolicies.load(file, null)).isEqualTo(first);
  }

  @Test
  void aChangedFileIsReadAgainOnTheNextLoad() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL, "rw-r--r--");
    LoadedPolicy first = ExecutionPolicies.load(file, null);

    Files.writeString(file, "{\"version\": 1, \"maxOutputBytes\": 4096}");
    LoadedPolicy second = ExecutionPolicies.load(file, null);

    assertThat(second.hash()).isNotEqualTo(first.hash());
    assertThat(second.policy().maxOutputBytes()).isEqualTo(4096);
  }

  @Test
  void aChangedFileThatNoLongerValidatesFailsAlthoughAnEarlierVersionLoaded() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL, "rw-r--r--");
    ExecutionPolicies.load(file, null);

    Files.writeString(file, "{\"version\": 2}");

    assertThatThrownBy(() -> ExecutionPolicies.load(file, null)).isInstanceOf(PolicyException.class);
  }

  @Test
  void theFileChecksRunAgainOnAFileThatLoadedBefore() throws IOException {
    Path file = write(dir.resolve("policy.json"), MINIMAL, "rw-r--r--");
    ExecutionPolicies.load(file, null);

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-r--"));

    assertLoadFails(file, null, "POLICY_WRITABLE_BY_OTHERS");
  }

  @Test
  void aFileThatLoadedBeforeIsStillRefusedInsideTheRepository() throws IOException {
    Path repository = Files.createDirectory(dir.resolve("repo"));
    Path file = write(repository.resolve("policy.json"), MINIMAL, "rw-r--r--");
    ExecutionPolicies.load(file, null);

    assertLoadFails(file, repository, "POLICY_INSIDE_REPOSITORY");
  }
}
