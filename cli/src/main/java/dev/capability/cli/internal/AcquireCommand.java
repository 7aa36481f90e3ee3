package dev.capability.cli.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.acquire.Acquisition;
import dev.capability.acquire.AcquisitionListener;
import dev.capability.acquire.Check;
import dev.capability.acquire.Coordinates;
import dev.capability.acquire.Fetch;
import dev.capability.acquire.NpmAcquirer;
import dev.capability.acquire.NpmCoordinates;
import dev.capability.acquire.NpmRegistryKeys;
import dev.capability.acquire.Observations;
import dev.capability.acquire.PackageAcquirer;
import dev.capability.acquire.PackageSource;
import dev.capability.acquire.PackageSources;
import dev.capability.acquire.TrustPolicies;
import dev.capability.acquire.TrustScore;
import dev.capability.acquire.SigstoreTrust;
import dev.capability.acquire.TrustedKeys;
import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.store.AcquisitionRecord;
import dev.capability.ledger.LedgerException;
import dev.capability.ledger.SqliteLedger;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code capability acquire}: fetch exact coordinates, verify them, decide under a trust policy,
 * store by digest; then record the acquisition, accepted or refused, in the ledger of {@code --repo}.
 */
@Command(
    name = "acquire",
    description = "Fetch a package by exact coordinates, verify checksums, signature and provenance, store it by digest and record"
        + " the acquisition in the ledger. Nothing runs.")
final class AcquireCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String MAVEN_CENTRAL = "https://repo.maven.apache.org/maven2/";
  static final String NPM_REGISTRY = "https://registry.npmjs.org/";
  private static final String NPM_PREFIX = "npm:";

  private final Console console;

  @Parameters(paramLabel = "COORDINATES", description = "group:artifact:version[:classifier][@type] or npm:name@version, an exact version.")
  String coordinates;

  @Option(names = "--repository", paramLabel = "URL", description = "The Maven repository or npm registry (HTTPS). Default: Maven Central, or registry.npmjs.org for npm:.")
  String repository;

  @Option(names = "--local-repository", paramLabel = "DIR", description = "A directory in the Maven layout, instead of --repository.")
  Path localRepository;

  @Option(names = "--allow-http-loopback", description = "Allow plain HTTP when the repository host is a loopback address.")
  boolean allowHttpLoopback;

  @Option(names = "--trust", paramLabel = "POLICY", description = "strict, default (the default), or a trust-policy file.")
  String trust = "default";

  @Option(names = "--keyring", paramLabel = "FILE", description = "The trusted keys and the coordinates each may sign (JSON).")
  Path keyring;

  @Option(names = "--sigstore", paramLabel = "FILE", description = "The Sigstore trusted root and the signer identities each may sign for (JSON).")
  Path sigstore;

  @Option(names = "--npm-keys", paramLabel = "FILE", description = "The pinned npm registry keys (the registry's /-/npm/v1/keys JSON).")
  Path npmKeys;

  @Option(names = "--expect-repository", paramLabel = "URL", description = "The source repository the provenance must name.")
  String expectedRepository;

  @Option(names = "--expect-commit", paramLabel = "HEX", description = "The commit (40 hex digits) the provenance must name.")
  String expectedCommit;

  @Option(names = "--store", paramLabel = "DIR", description = "The content-addressed store. Default: .capability/packages.")
  Path store = Path.of(".capability", "packages");

  @Option(names = "--max-bytes", paramLabel = "N", description = "The largest package accepted, in bytes. Default: 67108864.")
  long maxBytes = PackageAcquirer.DEFAULT_MAX_BYTES;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Option(names = "--repo", paramLabel = "DIR", description = "The repository whose ledger records the acquisition (default: the working directory).")
  Path repo;

  @Option(names = "--no-ledger", description = "Do not record the acquisition in <repo>/.capability/state.db.")
  boolean noLedger;

  AcquireCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    if (maxBytes <= 0) {
      throw new CapabilityException(CliCodes.USAGE, "--max-bytes must be positive");
    }
    Acquisition acquisition = coordinates.startsWith(NPM_PREFIX) ? acquireNpm() : acquireMaven();
    // One document for --json and the ledger alike.
    Map<String, Object> document = document(acquisition);
    if (json) {
      console.json(JSON.valueToTree(document));
    } else {
      printPlain(acquisition);
    }
    if (!acquisition.accepted() && !json) {
      console.err().println("capability: " + acquisition.decision().code() + ": " + acquisition.decision().reason());
    }
    if (!noLedger) {
      // After the report, as run does: what was fetched and decided is shown even if the ledger fails.
      try {
        record(document);
      } catch (LedgerException e) {
        // Plain on stderr even under --json: stdout already holds the acquisition, one JSON document.
        console.error(e, false);
        return ExitCodes.forException(e);
      }
    }
    return acquisition.accepted() ? ExitCodes.OK : ExitCodes.CAPABILITY_REFUSED;
  }

  private static Map<String, Object> document(Acquisition acquisition) {
    try {
      return JSON.readValue(acquisition.toJson(), new TypeReference<Map<String, Object>>() {});
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the runtime wrote invalid JSON", e);
    }
  }

  /** One ACQUISITION record whose body is the acquisition's JSON, the same document --json prints. */
  private void record(Map<String, Object> body) {
    Path repository = (repo == null ? Path.of("") : repo).toAbsolutePath().normalize();
    AcquisitionRecord acquisition;
    try {
      acquisition = AcquisitionRecord.of(body);
    } catch (IllegalArgumentException e) {
      throw new LedgerException("LEDGER_RECORD_INVALID", "the acquisition cannot be recorded: " + e.getMessage(), e);
    }
    try (SqliteLedger ledger = SqliteLedger.forRepository(repository)) {
      ledger.record(acquisition);
    }
  }

  private Acquisition acquireNpm() {
    NpmCoordinates exact = NpmCoordinates.parse(coordinates.substring(NPM_PREFIX.length()));
    if (localRepository != null || keyring != null || sigstore != null || expectedRepository != null || expectedCommit != null) {
      throw new CapabilityException(
          CliCodes.USAGE, "npm: coordinates take --repository, --npm-keys, --trust, --store, --max-bytes and --allow-http-loopback only");
    }
    return NpmAcquirer.builder(uri(repository == null ? NPM_REGISTRY : repository), store)
        .allowHttpLoopback(allowHttpLoopback)
        .keys(npmKeys == null ? NpmRegistryKeys.none() : NpmRegistryKeys.load(npmKeys))
        .policy(TrustPolicies.named(trust))
        .maxBytes(maxBytes)
        .listener(new Progress(console.progress(json)))
        .build()
        .acquire(exact);
  }

  private Acquisition acquireMaven() {
    Coordinates exact = Coordinates.parse(coordinates);
    if (npmKeys != null) {
      throw new CapabilityException(CliCodes.USAGE, "--npm-keys is for npm: coordinates");
    }
    PackageAcquirer.Builder builder = PackageAcquirer.builder(source(), store)
        .keys(keyring == null ? TrustedKeys.none() : TrustedKeys.load(keyring))
        .sigstore(sigstore == null ? SigstoreTrust.none() : SigstoreTrust.load(sigstore))
        .policy(TrustPolicies.named(trust))
        .maxBytes(maxBytes)
        .listener(new Progress(console.progress(json)));
    if (expectedRepository != null) {
      builder.expectedRepository(expectedRepository);
    }
    if (expectedCommit != null) {
      if (!expectedCommit.matches("[0-9a-f]{40}")) {
        throw new CapabilityException(CliCodes.USAGE, "--expect-commit must be 40 lowercase hex digits, not '" + expectedCommit + "'");
      }
      builder.expectedCommit(expectedCommit);
    }
    return builder.build().acquire(exact);
  }

  private PackageSource source() {
    if (localRepository != null) {
      if (repository != null) {
        throw new CapabilityException(CliCodes.USAGE, "give --repository or --local-repository, not both");
      }
      return PackageSources.localRepository(localRepository);
    }
    return PackageSources.mavenRepository(uri(repository == null ? MAVEN_CENTRAL : repository), allowHttpLoopback);
  }

  private static URI uri(String text) {
    try {
      return new URI(text);
    } catch (URISyntaxException e) {
      throw new CapabilityException(CliCodes.USAGE, "--repository '" + UrlCredentials.redacted(text) + "' is not a URL: " + e.getReason());
    }
  }

  private void printPlain(Acquisition acquisition) {
    Observations o = acquisition.observations();
    var out = console.out();
    out.println("coordinates: " + o.coordinates());
    out.println("decision: " + (acquisition.accepted() ? "ACQUIRED" : "REFUSED " + acquisition.decision().code())
        + " (policy " + acquisition.decision().policy() + ")");
    out.println("stored: " + acquisition.stored().map(Path::toString).orElse("(nothing stored)"));
    out.println("sha256: " + o.sha256());
    out.println("size: " + o.size());
    out.println("source: " + o.source());
    for (Fetch fetch : o.fetched()) {
      out.println("  " + (fetch.found() ? "fetched " + fetch.size() + " bytes sha256:" + fetch.sha256() + " " : "absent ") + fetch.location());
    }
    out.println("integrity: " + line(o.integrity()));
    out.println("identity: " + line(o.identity()));
    out.println("signature: " + line(o.signature()) + o.signingKey().map(key -> " [key " + key + "]").orElse(""));
    out.println("provenance: " + line(o.provenance()));
    out.println("sigstore: " + line(o.sigstore()) + o.sigstoreSigner().map(signer -> " [signer " + signer + "]").orElse(""));
    TrustScore score = acquisition.score();
    StringBuilder items = new StringBuilder();
    for (TrustScore.Component component : score.components()) {
      items.append(items.length() == 0 ? "" : ", ").append(component.name()).append(' ').append(component.points()).append('/').append(component.max());
    }
    out.println("score: " + score.total() + "/" + score.max() + " (advisory; grants nothing: " + items + ")");
  }

  /** Says on stderr when the package download starts and ends; side files are listed in the result. */
  private static final class Progress implements AcquisitionListener {
    private final Consumer<String> progress;
    private String downloading;

    Progress(Consumer<String> progress) {
      this.progress = progress;
    }

    @Override
    public void downloading(String location) {
      downloading = location;
      progress.accept("downloading " + location);
    }

    @Override
    public void fetched(Fetch fetch) {
      if (fetch.location().equals(downloading)) {
        progress.accept("downloaded " + fetch.size() + " bytes; verifying");
      }
    }
  }

  private static String line(Check check) {
    return check.status() + (check.code().isEmpty() ? "" : " " + check.code()) + ": " + check.detail();
  }
}
