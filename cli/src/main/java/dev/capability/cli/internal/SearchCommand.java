package dev.capability.cli.internal;

import dev.capability.capability.runtime.Effect;
import dev.capability.capability.runtime.support.UrlCredentials;
import dev.capability.discovery.DiscoveryLimits;
import dev.capability.discovery.DiscoveryResult;
import dev.capability.discovery.FoundEntry;
import dev.capability.discovery.IndexFederation;
import dev.capability.discovery.IndexProblem;
import dev.capability.discovery.IndexSearch;
import dev.capability.discovery.SearchHit;
import dev.capability.kernel.api.CapabilityException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code capability search}: reads index documents (inertly) and ranks their entries. */
@Command(name = "search", description = "Search capability index documents and the indexes they federate to.")
final class SearchCommand implements Callable<Integer> {
  private final Console console;

  @Parameters(arity = "1..*", paramLabel = "QUERY", description = "Words that must all occur in a name, artifact id or description.")
  List<String> query;

  @Option(names = "--index", paramLabel = "URL", required = true, description = "An index to start from (repeatable).")
  List<String> indexes;

  @Mixin NetworkAccessOptions network = new NetworkAccessOptions();

  @Option(names = "--max-depth", paramLabel = "N", description = "Links followed from a seed (default: ${DEFAULT-VALUE}).")
  int maxDepth = DiscoveryLimits.defaults().maxDepth();

  @Option(names = "--max-indexes", paramLabel = "N", description = "Documents read at most (default: ${DEFAULT-VALUE}).")
  int maxIndexes = DiscoveryLimits.defaults().maxIndexes();

  @Option(names = "--max-document-bytes", paramLabel = "N", description = "Largest document (default: ${DEFAULT-VALUE}).")
  long maxDocumentBytes = DiscoveryLimits.defaults().maxDocumentBytes();

  @Option(names = "--max-total-bytes", paramLabel = "N", description = "Bytes read in all (default: ${DEFAULT-VALUE}).")
  long maxTotalBytes = DiscoveryLimits.defaults().maxTotalBytes();

  @Option(names = "--time-budget", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Time for the whole traversal (default: 30s).")
  Duration timeBudget = DiscoveryLimits.defaults().timeBudget();

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  SearchCommand(Console console) {
    this.console = console;
  }

  @Override
  public Integer call() {
    String words = String.join(" ", query);
    // Limits out of range and a query without words are IllegalArgumentExceptions: usage errors.
    DiscoveryLimits limits = new DiscoveryLimits(maxDepth, maxIndexes, maxDocumentBytes, maxTotalBytes, timeBudget);
    List<URI> seeds = new ArrayList<>();
    for (String index : indexes) {
      try {
        seeds.add(new URI(index));
      } catch (URISyntaxException e) {
        throw new CapabilityException(CliCodes.USAGE, "--index '" + UrlCredentials.redacted(index) + "' is not a URL: " + e.getReason());
      }
    }
    DiscoveryResult result = IndexFederation.traverse(seeds, limits, network.access());
    List<SearchHit> hits = IndexSearch.search(result, words);
    int exit = result.visited().isEmpty() ? ExitCodes.CONFIGURATION : ExitCodes.OK;
    if (json) {
      console.json(view(words, hits, result));
      return exit;
    }
    for (SearchHit hit : hits) {
      FoundEntry found = hit.found();
      console.out().println(found.entry().name() + "  " + found.entry().coordinates() + "  score " + hit.score()
          + "  from " + printed(found.index()) + (found.entry().claims().isEmpty() ? "" : "  claims (unverified) " + new TreeMap<>(found.entry().claims())));
      if (!found.entry().description().isEmpty()) {
        console.out().println("    " + found.entry().description());
      }
    }
    for (IndexProblem problem : result.problems()) {
      console.err().println("capability: " + problem.code() + ": " + problem.message());
    }
    console.err().println("capability: " + hits.size() + " hits from " + result.visited().size() + " indexes; " + result.stopReason());
    return exit;
  }

  private static Map<String, Object> view(String query, List<SearchHit> hits, DiscoveryResult result) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("query", query);
    view.put("hits", hits.stream().map(SearchCommand::hit).toList());
    view.put("visited", result.visited().stream().map(SearchCommand::printed).toList());
    view.put("problems", result.problems().stream().map(problem -> {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("index", printed(problem.index()));
      item.put("code", problem.code());
      item.put("message", problem.message());
      return item;
    }).toList());
    view.put("stop", result.stopReason());
    return view;
  }

  private static Map<String, Object> hit(SearchHit hit) {
    FoundEntry found = hit.found();
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("name", found.entry().name());
    item.put("coordinates", found.entry().coordinates().toString());
    item.put("description", found.entry().description());
    item.put("effects", found.entry().effects().stream().map(Effect::toString).toList());
    // Sorted: the entry's map has no order of its own, and the output must be the same on every run.
    item.put("claims", new TreeMap<>(found.entry().claims()));
    item.put("score", hit.score());
    item.put("index", printed(found.index()));
    item.put("path", found.path().stream().map(SearchCommand::printed).toList());
    return item;
  }

  /** An index URL as printed: an index link may carry a token in its query. */
  private static String printed(URI index) {
    return UrlCredentials.redacted(index.toString());
  }
}
