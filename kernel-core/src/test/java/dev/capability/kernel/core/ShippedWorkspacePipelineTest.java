package dev.capability.kernel.core;

import static dev.capability.testing.Git.git;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.capability.kernel.api.Attestation;
import dev.capability.kernel.api.AttestationJson;
import dev.capability.kernel.api.ExecutionRequest;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.ExecutionStatus;
import dev.capability.kernel.api.NetworkMode;
import dev.capability.kernel.api.backend.ExecutionBackend;
import dev.capability.kernel.api.json.CanonicalJson;
import dev.capability.kernel.api.policy.ExecutableRule;
import dev.capability.kernel.api.policy.ExecutionPolicy;
import dev.capability.kernel.api.policy.ProjectWriteMode;
import dev.capability.workspace.WorkspaceCodes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The repository shipped to a backend that cannot bind it, through the whole kernel: the test
 * backend runs the command in a directory of its own filled by real {@code tar}, and only what the
 * kernel's checks accept of the returned writable roots reaches the repository, then audited as
 * after a local run.
 */
class ShippedWorkspacePipelineTest {
  @TempDir Path tmp;
  private Path repo;
  private Path scratch;
  private Path writer;

  @BeforeEach
  void repository() throws Exception {
    repo = Files.createDirectories(tmp.resolve("repo")).toRealPath();
    scratch = Files.createDirectories(tmp.resolve("remote"));
    Files.createDirectories(repo.resolve("src"));
    Files.writeString(repo.resolve("src/Main.java"), "class Main {}\n");
    Files.writeString(repo.resolve("README.md"), "# demo\n");
    Files.writeString(repo.resolve("old.txt"), "to be deleted\n");
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "init");
    Files.createDirectories(repo.resolve(".capability"));
    Files.writeString(repo.resolve(".capability/state.db"), "the ledger\n");
    // In scope: src/Gen.java. Out of scope: notes.txt, old.txt and the git directory.
    writer = TestFiles.script(tmp.resolve("bin"), "writer",
        "echo 'class Gen {}' > src/Gen.java\necho note > notes.txt\nrm old.txt\necho hook > .git/hooks/post-checkout\necho done");
  }

  private CommandKernel kernel(ExecutionBackend backend) {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .projectWrites(ProjectWriteMode.SCOPED)
        .writeScopes(List.of("src/**"))
        .executable(ExecutableRule.atPath("writer", writer).exact().build())
        .build();
    return CommandKernel.builder(ExecutionPolicies.of(policy)).discoverBackends(false).backend(backend)
        .hostEnvironment(Map.of()).build();
  }

  private ExecutionResult run(ExecutionBackend backend) {
    try (CommandKernel kernel = kernel(backend)) {
      return kernel.execute(ExecutionRequest.argv(writer.toString()).repository(repo).build());
    }
  }

  @Test
  void anAllowedWriteComesBackAndIsAuditedAndWritesOutsideTheScopeNeverReachTheHost() throws Exception {
    ShippingTestBackend backend = ShippingTestBackend.honest(scratch);

    ExecutionResult result = run(backend);

    assertThat(result.status()).as(result.failureMessage()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result.stdout().text()).isEqualTo("done\n");
    assertThat(backend.sandbox.resolve("notes.txt")).as("the command did write outside its scope, remotely").exists();
    assertThat(backend.sandbox.resolve(".capability")).as("the ledger is not shipped").doesNotExist();
    assertThat(backend.sandbox.resolve(".git/HEAD")).as("the git directory is").exists();
    assertThat(repo.resolve("src/Gen.java")).hasContent("class Gen {}");
    assertThat(repo.resolve("notes.txt")).doesNotExist();
    assertThat(repo.resolve("old.txt")).hasContent("to be deleted");
    assertThat(repo.resolve(".git/hooks/post-checkout")).doesNotExist();
    Attestation a = result.attestation();
    assertThat(a.changes()).extracting(c -> c.path() + ":" + c.kind()).containsExactly("src/Gen.java:CREATED");
    assertThat(a.violations()).isEmpty();
    assertThat(a.backend().id()).isEqualTo("shipping-test");
    byte[] input = Files.readAllBytes(backend.input);
    assertThat(a.workspace()).isEqualTo(new Attestation.Workspace(input.length, a.workspace().inputEntries(), sha256(input),
        a.workspace().returnedBytes(), Attestation.Workspace.APPLIED));
    assertThat(a.workspace().inputEntries()).isGreaterThan(3);
    assertThat(a.workspace().returnedBytes()).isPositive();
    assertMatchesTheSchemaAndReadsBack(a);
  }

  @Test
  void aHostileReturnedArchiveIsRefusedRecordedAndNothingOfItApplied() throws Exception {
    byte[] hostile = archive("src/Gen.java", "class Gen {}\n", "src/../README.md", "defaced\n");
    ShippingTestBackend backend = ShippingTestBackend.returning(scratch, hostile);

    ExecutionResult result = run(backend);

    assertThat(result.status()).isEqualTo(ExecutionStatus.WORKSPACE_REFUSED);
    assertThat(result.failureMessage()).startsWith(WorkspaceCodes.RETURN_TRAVERSAL).contains("src/../README.md");
    assertThat(result.exitCode()).hasValue(0);
    assertThat(repo.resolve("README.md")).hasContent("# demo");
    assertThat(repo.resolve("src/Gen.java")).doesNotExist();
    Attestation a = result.attestation();
    assertThat(a.status()).isEqualTo(ExecutionStatus.WORKSPACE_REFUSED);
    assertThat(a.workspace().outcome()).isEqualTo(WorkspaceCodes.RETURN_TRAVERSAL);
    assertThat(a.changes()).isEmpty();
    assertMatchesTheSchemaAndReadsBack(a);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "ln -s ../../.. src/escape | WORKSPACE_RETURN_LINK_OUT | src/escape",
      "ln src/Main.java src/second-name | WORKSPACE_RETURN_HARD_LINK | src/second-name",
      "mkfifo src/pipe | WORKSPACE_RETURN_SPECIAL_FILE | src/pipe"})
  void whatTheCommandPlantsInItsRootIsRefusedWhenRealTarBringsItBack(String plant, String code, String entry) throws Exception {
    writer = TestFiles.script(tmp.resolve("planting"), "writer", "echo 'class Gen {}' > src/Gen.java\n" + plant);

    ExecutionResult result = run(ShippingTestBackend.honest(scratch));

    assertThat(result.status()).isEqualTo(ExecutionStatus.WORKSPACE_REFUSED);
    assertThat(result.failureMessage()).startsWith(code).contains(entry);
    assertThat(result.attestation().workspace().outcome()).isEqualTo(code);
    assertThat(repo.resolve("src/Gen.java")).doesNotExist();
    assertThat(repo.resolve(entry)).doesNotExist();
    assertThat(result.attestation().changes()).isEmpty();
  }

  @Test
  void writableRootsNeverHandedBackAreRecordedAsNotReturned() throws Exception {
    ExecutionResult result = run(ShippingTestBackend.returningNothing(scratch));

    assertThat(result.status()).isEqualTo(ExecutionStatus.WORKSPACE_REFUSED);
    assertThat(result.attestation().workspace().outcome()).isEqualTo(WorkspaceCodes.NOT_RETURNED);
    assertThat(repo.resolve("src/Gen.java")).doesNotExist();
    assertMatchesTheSchemaAndReadsBack(result.attestation());
  }

  @Test
  void aLocalRunShipsNothingAndItsAttestationHasNoWorkspaceMember() {
    ExecutionPolicy policy = ExecutionPolicy.builder()
        .network(NetworkMode.HOST).allowUnisolatedFallback(true)
        .projectWrites(ProjectWriteMode.SCOPED).writeScopes(List.of("src/**"))
        .executable(ExecutableRule.atPath("writer", writer).exact().build()).build();
    try (CommandKernel kernel = CommandKernel.builder(ExecutionPolicies.of(policy)).hostEnvironment(Map.of()).build()) {
      ExecutionResult result = kernel.execute(ExecutionRequest.argv(writer.toString()).repository(repo).build());

      assertThat(result.attestation().backend().id()).isEqualTo("process");
      assertThat(result.attestation().workspace()).isNull();
      assertThat(AttestationJson.toMap(result.attestation())).doesNotContainKey("workspace");
    }
  }

  private static void assertMatchesTheSchemaAndReadsBack(Attestation a) throws Exception {
    JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
        .getSchema(Files.readString(Path.of("../docs/schemas/attestation.schema.json")));
    assertThat(schema.validate(new ObjectMapper().valueToTree(AttestationJson.toMap(a)))).isEmpty();
    assertThat(AttestationJson.fromJson(CanonicalJson.serialize(AttestationJson.toMap(a)))).isEqualTo(a);
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  /** A ustar archive of regular files, name and content pairs, written byte by byte. */
  private static byte[] archive(String... namesAndContents) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < namesAndContents.length; i += 2) {
      byte[] content = namesAndContents[i + 1].getBytes(StandardCharsets.UTF_8);
      byte[] header = new byte[512];
      put(header, 0, namesAndContents[i]);
      put(header, 100, "0000644");
      put(header, 108, "0001750");
      put(header, 116, "0001750");
      put(header, 124, String.format("%011o", content.length));
      put(header, 136, String.format("%011o", 1_700_000_000L));
      header[156] = '0';
      put(header, 257, "ustar");
      put(header, 263, "00");
      Arrays.fill(header, 148, 156, (byte) ' ');
      int sum = 0;
      for (byte b : header) {
        sum += b & 0xff;
      }
      put(header, 148, String.format("%06o", sum));
      header[154] = 0;
      out.writeBytes(header);
      out.writeBytes(content);
      out.writeBytes(new byte[(512 - content.length % 512) % 512]);
    }
    out.writeBytes(new byte[1024]);
    return out.toByteArray();
  }

  private static void put(byte[] block, int offset, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(bytes, 0, block, offset, bytes.length);
  }
}
