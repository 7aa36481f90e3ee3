package dev.capability.acquire.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.acquire.Acquisition;
import dev.capability.acquire.Check;
import dev.capability.acquire.Fetch;
import dev.capability.acquire.Observations;
import dev.capability.acquire.TrustScore;
import dev.capability.capability.runtime.support.UrlCredentials;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The one JSON form of an acquisition: recorded beside the store and printed by {@code acquire --json}. */
public final class AcquisitionJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AcquisitionJson() {}

  public static String write(Acquisition acquisition) {
    try {
      return JSON.writeValueAsString(view(acquisition));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an acquisition could not be written as JSON", e);
    }
  }

  private static Map<String, Object> view(Acquisition acquisition) {
    Observations o = acquisition.observations();
    Map<String, Object> decision = new LinkedHashMap<>();
    decision.put("accepted", acquisition.accepted());
    decision.put("code", acquisition.decision().code());
    decision.put("policy", acquisition.decision().policy());
    decision.put("reason", acquisition.decision().reason());
    Map<String, Object> observations = new LinkedHashMap<>();
    observations.put("source", o.source());
    observations.put("fetched", o.fetched().stream().map(AcquisitionJson::fetch).toList());
    observations.put("integrity", check(o.integrity()));
    observations.put("identity", check(o.identity()));
    Map<String, Object> signature = check(o.signature());
    signature.put("key", o.signingKey().orElse(null));
    observations.put("signature", signature);
    Map<String, Object> provenance = check(o.provenance());
    // The provenance is remote data; the repository it names may carry a token.
    provenance.put("repository", o.repository().map(UrlCredentials::redacted).orElse(null));
    provenance.put("commit", o.commit().orElse(null));
    observations.put("provenance", provenance);
    Map<String, Object> sigstore = check(o.sigstore());
    sigstore.put("signer", o.sigstoreSigner().orElse(null));
    observations.put("sigstore", sigstore);
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("coordinates", o.coordinates());
    view.put("stored", acquisition.stored().map(Path::toString).orElse(null));
    view.put("sha256", o.sha256());
    view.put("sha512", o.sha512());
    view.put("size", o.size());
    view.put("decision", decision);
    view.put("observations", observations);
    view.put("score", score(acquisition.score()));
    return view;
  }

  private static Map<String, Object> fetch(Fetch fetch) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("location", fetch.location());
    view.put("found", fetch.found());
    view.put("size", fetch.size());
    view.put("sha256", fetch.found() ? fetch.sha256() : null);
    return view;
  }

  private static Map<String, Object> check(Check check) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("status", check.status().name());
    view.put("code", check.code().isEmpty() ? null : check.code());
    view.put("detail", check.detail());
    return view;
  }

  private static Map<String, Object> score(TrustScore score) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("total", score.total());
    view.put("max", score.max());
    view.put("advisory", true);
    view.put("components", score.components().stream().map(component -> {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("name", component.name());
      item.put("points", component.points());
      item.put("max", component.max());
      item.put("reason", component.reason());
      return item;
    }).toList());
    return view;
  }
}
