package dev.capability.capability.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The runtime's class path carries no Sigstore library and none of its gRPC and protobuf tree:
 * those come only with the optional capability-acquire-sigstore plug-in. This test's class path
 * holds every compile, runtime and test dependency of the module, so an absence here is an absence
 * for every embedder of the runtime alone.
 */
class RuntimeDependenciesTest {
  @Test
  void theRuntimeBringsNoSigstoreGrpcOrProtobuf() {
    for (String resource : List.of(
        "dev/sigstore/KeylessVerifier.class",
        "io/grpc/ManagedChannel.class",
        "io/grpc/Context.class",
        "com/google/protobuf/Message.class",
        "com/google/api/client/http/HttpTransport.class")) {
      assertThat(getClass().getClassLoader().getResource(resource)).as(resource).isNull();
    }
  }

  @Test
  void norTheModulesBuiltOnIt() {
    for (String resource : List.of(
        "dev/capability/acquire/PackageAcquirer.class",
        "dev/capability/discovery/IndexFederation.class",
        "dev/capability/openapi/OpenApiImport.class")) {
      assertThat(getClass().getClassLoader().getResource(resource)).as(resource).isNull();
    }
  }
}
