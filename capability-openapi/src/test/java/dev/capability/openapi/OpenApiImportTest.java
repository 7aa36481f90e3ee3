package dev.capability.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.sun.net.httpserver.HttpServer;
import dev.capability.capability.runtime.Effect;
import dev.capability.discovery.NetworkAccess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OpenApiImportTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

  static final String PETSTORE = """
      {"openapi": "3.0.3",
       "info": {"title": "Pets", "version": "1.2.0"},
       "servers": [{"url": "https://{region}.pets.example.com/v1", "variables": {"region": {"default": "eu", "enum": ["eu", "us"]}}}],
       "paths": {
         "/pets": {
           "get": {"operationId": "listPets", "summary": "List pets",
                   "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}}],
                   "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}}},
           "post": {"operationId": "create_pet",
                    "requestBody": {"$ref": "#/components/requestBodies/NewPet"},
                    "responses": {"201": {"description": "created"}}}
         },
         "/pets/{petId}": {
           "parameters": [{"$ref": "#/components/parameters/PetId"}],
           "get": {"description": "One pet\\nwith details", "responses": {"2XX": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}
         }
       },
       "components": {
         "parameters": {"PetId": {"name": "petId", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^(a+)+$"}}},
         "requestBodies": {"NewPet": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}},
         "schemas": {"Pet": {"type": "object", "required": ["name"], "additionalProperties": false,
                             "properties": {"name": {"type": "string", "maxLength": 64}, "age": {"type": "integer", "minimum": 0, "exclusiveMinimum": true, "nullable": true},
                                            "tag": {"type": "string", "nullable": true, "example": "cat", "x-internal": true}}}}
       }}
      """;

  private static List<ImportedOperation> read(String document, ImportOptions options) {
    return OpenApiImport.read(document.getBytes(StandardCharsets.UTF_8), options);
  }

  private static List<ImportedOperation> read(String document) {
    return read(document, ImportOptions.defaults());
  }

  private static String code(Throwable e) {
    return ((OpenApiRefusedException) e).code();
  }

  /** A minimal document with one operation, its server and the given components. */
  static String withServer(String url) {
    return "{\"openapi\":\"3.1.0\",\"info\":{\"title\":\"t\",\"version\":\"1.0.0\"},\"servers\":[{\"url\":\"" + url + "\"}],"
        + "\"paths\":{\"/x\":{\"get\":{\"operationId\":\"getX\"}}}}";
  }

  static String withSchema(String schema, String components) {
    return "{\"openapi\":\"3.1.0\",\"info\":{\"title\":\"t\",\"version\":\"1.0.0\"},\"servers\":[{\"url\":\"https://api.example.com\"}],"
        + "\"paths\":{\"/x\":{\"post\":{\"operationId\":\"postX\",\"requestBody\":{\"content\":{\"application/json\":{\"schema\":"
        + schema + "}}}}}},\"components\":{\"schemas\":" + components + "}}";
  }

  @Test
  void aGoodDocumentBecomesOneCapabilityPerOperationConnectingToItsServer() throws IOException {
    List<ImportedOperation> operations = read(PETSTORE);

    assertThat(operations).extracting(ImportedOperation::name).containsExactly("list-pets", "create-pet", "get-pets-petid");
    assertThat(operations).extracting(ImportedOperation::connect).containsOnly(Effect.of("network.connect", "eu.pets.example.com:443"));
    assertThat(operations).extracting(ImportedOperation::version).containsOnly("1.2.0");
    ImportedOperation get = operations.get(2);
    assertThat(get.method()).isEqualTo("GET");
    assertThat(get.path()).isEqualTo("/pets/{petId}");
    assertThat(get.server().toString()).isEqualTo("https://eu.pets.example.com/v1");
    assertThat(get.description()).isEqualTo("One pet with details");

    JsonSchema createInput = SCHEMAS.getSchema(JSON.readTree(operations.get(1).inputSchemaJson()));
    assertThat(createInput.validate(JSON.readTree("{\"body\":{\"name\":\"Rex\",\"age\":3}}"))).isEmpty();
    assertThat(createInput.validate(JSON.readTree("{\"body\":{\"name\":\"Rex\",\"age\":0}}"))).as("exclusive minimum").isNotEmpty();
    assertThat(createInput.validate(JSON.readTree("{\"body\":{\"name\":\"Rex\",\"age\":null}}"))).as("nullable").isEmpty();
    assertThat(createInput.validate(JSON.readTree("{}"))).as("required body").isNotEmpty();
    assertThat(createInput.validate(JSON.readTree("{\"body\":{\"name\":\"Rex\",\"owner\":\"me\"}}"))).as("closed object").isNotEmpty();

    JsonSchema getInput = SCHEMAS.getSchema(JSON.readTree(get.inputSchemaJson()));
    assertThat(getInput.validate(JSON.readTree("{\"path\":{\"petId\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\"}}"))).isEmpty();
    assertThat(getInput.validate(JSON.readTree("{\"query\":{}}"))).isNotEmpty();
    assertThat(get.inputSchemaJson()).doesNotContain("pattern").doesNotContain("example").doesNotContain("x-internal").doesNotContain("$ref");
  }

  @Test
  void manifestsAreCompleteAndValidAgainstThePublishedSchema(@TempDir Path temp) throws IOException {
    List<ImportedOperation> operations = read(PETSTORE);
    List<Path> written = OpenApiImport.write(operations, temp.resolve("out"));

    ObjectNode schema = (ObjectNode) JSON.readTree(Files.readString(Path.of("..", "docs", "schemas", "capability-manifest.schema.json")));
    schema.putArray("required").add("name").add("version").add("input").add("output");
    JsonSchema manifestSchema = SCHEMAS.getSchema(schema);
    assertThat(written).hasSize(3);
    for (Path directory : written) {
      JsonNode manifest = JSON.readTree(Files.readString(directory.resolve("capability.json")));
      // The published schema's path rule refuses the './' prefix ManifestParser requires; entry and
      // modules are checked by inspecting the package instead (OpenApiInvocationTest).
      ObjectNode withoutModules = manifest.deepCopy();
      withoutModules.remove(List.of("entry", "modules"));
      assertThat(manifestSchema.validate(withoutModules)).as(directory.toString()).isEmpty();
      assertThat(manifest.at("/entry/class").asText()).isEqualTo("dev.capability.openapi.invoker.HttpOperationInvoker");
      String module = manifest.at("/entry/module").asText();
      assertThat(manifest.at("/modules").get(module).asText())
          .isEqualTo(dev.capability.capability.runtime.internal.manifest.Integrity.of(Files.readAllBytes(directory.resolve(module))));
      assertThat(manifest.at("/effects/network.connect/0").asText()).isEqualTo("eu.pets.example.com:443");
      assertThat(manifest.at("/output/required").toString()).isEqualTo("[\"status\",\"body\"]");
      JsonNode binding = JSON.readTree(Files.readString(directory.resolve("operation.json")));
      assertThat(binding.get("format").asText()).isEqualTo("capability-http-operation/1");
      assertThat(binding.get("capability").asText()).isEqualTo(directory.getFileName().toString());
    }
    JsonNode list = JSON.readTree(Files.readString(written.get(0).resolve("operation.json")));
    assertThat(list.at("/parameters/query").toString()).isEqualTo("[\"limit\"]");
    assertThat(list.at("/response/type").asText()).isEqualTo("array");
    assertThat(JSON.readTree(Files.readString(written.get(1).resolve("operation.json"))).get("body").asText()).isEqualTo("application/json");
    assertThatThrownBy(() -> OpenApiImport.write(operations, temp.resolve("out")))
        .extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_OUTPUT_INVALID);
  }

  @Test
  void theSameDocumentYieldsTheSameModuleBytes(@TempDir Path temp) throws IOException {
    List<Path> first = OpenApiImport.write(read(PETSTORE), temp.resolve("first"));
    List<Path> second = OpenApiImport.write(read(PETSTORE), temp.resolve("second"));

    for (int i = 0; i < first.size(); i++) {
      assertThat(Files.readString(second.get(i).resolve("capability.json"))).isEqualTo(Files.readString(first.get(i).resolve("capability.json")));
      assertThat(Files.readAllBytes(second.get(i).resolve("lib/http-operation.jar")))
          .isEqualTo(Files.readAllBytes(first.get(i).resolve("lib/http-operation.jar")));
    }
    assertThat(JSON.readTree(Files.readString(first.get(0).resolve("capability.json"))).get("modules"))
        .as("operations differ in their binding, so in their integrity")
        .isNotEqualTo(JSON.readTree(Files.readString(first.get(1).resolve("capability.json"))).get("modules"));
  }

  @Test
  void anExternalReferenceIsRefusedAndNeverFetched() throws IOException {
    AtomicInteger requests = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      requests.incrementAndGet();
      try (exchange) {
        byte[] body = "{\"type\":\"string\"}".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      }
    });
    server.start();
    try {
      String external = "http://127.0.0.1:" + server.getAddress().getPort() + "/schema.json";
      for (String ref : List.of(external, external + "#/Pet", "other.json#/components/schemas/Pet")) {
        String document = withSchema("{\"$ref\":\"" + ref + "\"}", "{}");
        assertThatThrownBy(() -> read(document, ImportOptions.defaults().withAccess(NetworkAccess.loopbackForTests())))
            .extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_REF_EXTERNAL);
      }
    } finally {
      server.stop(0);
    }
    assertThat(requests.get()).isZero();
  }

  @Test
  void referenceCyclesAreRefused() {
    String direct = withSchema("{\"$ref\":\"#/components/schemas/A\"}", "{\"A\":{\"$ref\":\"#/components/schemas/A\"}}");
    String recursive = withSchema("{\"$ref\":\"#/components/schemas/Node\"}",
        "{\"Node\":{\"type\":\"object\",\"properties\":{\"children\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/components/schemas/Node\"}}}}}");
    String mutual = withSchema("{\"$ref\":\"#/components/schemas/A\"}",
        "{\"A\":{\"allOf\":[{\"$ref\":\"#/components/schemas/B\"}]},\"B\":{\"not\":{\"$ref\":\"#/components/schemas/A\"}}}");

    for (String document : List.of(direct, recursive, mutual)) {
      assertThatThrownBy(() -> read(document)).extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_REF_CYCLE);
    }
  }

  @Test
  void aReferenceBombIsStoppedByTheNodeBudget() {
    StringBuilder components = new StringBuilder("{");
    for (int level = 0; level < 8; level++) {
      StringBuilder properties = new StringBuilder();
      for (int i = 0; i < 10; i++) {
        properties.append(i == 0 ? "" : ",").append("\"p").append(i).append("\":")
            .append(level == 7 ? "{\"type\":\"string\"}" : "{\"$ref\":\"#/components/schemas/L" + (level + 1) + "\"}");
      }
      components.append(level == 0 ? "" : ",").append("\"L").append(level).append("\":{\"type\":\"object\",\"properties\":{")
          .append(properties).append("}}");
    }
    String document = withSchema("{\"$ref\":\"#/components/schemas/L0\"}", components.append("}").toString());

    assertThatThrownBy(() -> read(document)).extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_SCHEMA_TOO_LARGE);
  }

  @Test
  void danglingAndMisplacedReferencesAreRefused() {
    assertThatThrownBy(() -> read(withSchema("{\"$ref\":\"#/components/schemas/Missing\"}", "{}")))
        .extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_REF_INVALID);
    assertThatThrownBy(() -> read(withSchema("{\"$ref\":\"#/paths\"}", "{}")))
        .extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_REF_INVALID);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "https://10.0.0.5", "https://127.0.0.1:8443", "https://localhost", "https://api.localhost", "https://[::1]",
      "https://169.254.169.254", "https://[fd12::1]", "https://[::ffff:192.168.0.1]"})
  void privateAndLoopbackServersAreRefused(String url) {
    assertThatThrownBy(() -> read(withServer(url)))
        .extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_SERVER_REFUSED);
  }

  @Test
  void loopbackServersAreAcceptedOnlyWithTheAllowance() {
    List<ImportedOperation> operations =
        read(withServer("http://127.0.0.1:8080/api"), ImportOptions.defaults().withAccess(NetworkAccess.loopbackForTests()));

    assertThat(operations.get(0).connect()).isEqualTo(Effect.of("network.connect", "127.0.0.1:8080"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "http://api.example.com", "/v1", "api.example.com/v1", "https://user:pw@api.example.com", "https://{host}/v1",
      "https://2130706433", "https://0177.0.0.1", "https://0x7f.1", "https://api.example.com/?debug=1", "ftp://api.example.com",
      "https://api.example.com/v1/../admin", "https://api.example.com/%2E%2E/admin", "https://api.example.com:0", "https://api.example.com."})
  void unusableServersAreRefused(String url) {
    assertThatThrownBy(() -> read(withServer(url)))
        .extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_SERVER_INVALID);
  }

  @Test
  void severalServersNeedAChoiceFromTheList() {
    String document = withServer("https://a.example.com").replace("}],", "},{\"url\":\"https://b.example.com:8443\"}],");

    assertThatThrownBy(() -> read(document)).extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_SERVER_INVALID);
    assertThatThrownBy(() -> read(document, ImportOptions.defaults().withServer("https://c.example.com")))
        .extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_SERVER_INVALID);
    assertThat(read(document, ImportOptions.defaults().withServer("https://b.example.com:8443")).get(0).connect())
        .isEqualTo(Effect.of("network.connect", "b.example.com:8443"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "https://user:s3cret@api.example.com/v1", "https://t0ken-s3cret@api.example.com/v1", "http://user:s3cret@api.example.com/v1",
      "https://api.example.com/v1?api_key=s3cret", "https://api.example.com/v1?access_token=s3cret#x",
      "https://user:s3cret word@api.example.com/v1"})
  void aRefusedServerIsNamedWithoutItsCredentials(String url) {
    assertThatThrownBy(() -> read(withServer(url)))
        .hasMessageContaining("api.example.com")
        .hasMessageNotContaining("s3cret")
        .extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_SERVER_INVALID);
  }

  @Test
  void theServersToChooseFromAndTheChoiceAreNamedWithoutCredentials() {
    String document = withServer("https://user:s3cret@a.example.com").replace("}],", "},{\"url\":\"https://b.example.com?sig=s3cret\"}],");

    assertThatThrownBy(() -> read(document))
        .hasMessageContaining("https://redacted@a.example.com").hasMessageContaining("https://b.example.com?sig=redacted")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> read(document, ImportOptions.defaults().withServer("https://me:s3cret@c.example.com")))
        .hasMessageContaining("https://redacted@c.example.com")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void tooManyOperationsAreRefused() {
    StringBuilder paths = new StringBuilder();
    for (int i = 0; i < 11; i++) {
      paths.append(i == 0 ? "" : ",").append("\"/op").append(i).append("\":{\"get\":{}}");
    }
    String document = withServer("https://api.example.com").replace("\"/x\":{\"get\":{\"operationId\":\"getX\"}}", paths.toString());

    assertThat(read(document)).hasSize(11);
    assertThatThrownBy(() -> read(document, ImportOptions.defaults().withLimits(OpenApiLimits.defaults().withMaxOperations(10))))
        .extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_TOO_MANY_OPERATIONS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"get pets", "getPets!", "../../etc", "-leading", "\\u202egetPets", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})
  void badOperationIdsAreRefused(String operationId) {
    String document = withServer("https://api.example.com").replace("getX", operationId);

    assertThatThrownBy(() -> read(document)).extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_NAME_INVALID);
  }

  @Test
  void operationsThatShareANameAreRefused() {
    String document = withServer("https://api.example.com")
        .replace("\"/x\":{\"get\":{\"operationId\":\"getX\"}}", "\"/x\":{\"get\":{\"operationId\":\"getPets\"}},\"/y\":{\"get\":{\"operationId\":\"get_pets\"}}");

    assertThatThrownBy(() -> read(document)).extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_NAME_COLLISION);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"swagger\":\"2.0\",\"info\":{\"version\":\"1.0.0\"},\"paths\":{}}",
      "{\"openapi\":\"4.0.0\",\"info\":{\"version\":\"1.0.0\"},\"paths\":{}}",
      "{\"openapi\":3.1,\"paths\":{}}"})
  void unsupportedVersionsAreRefused(String document) {
    assertThatThrownBy(() -> read(document)).extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_VERSION_UNSUPPORTED);
  }

  @Test
  void aVersionThatIsNotSemanticNeedsOneGiven() {
    String document = withServer("https://api.example.com").replace("\"version\":\"1.0.0\"", "\"version\":\"v2\"");

    assertThatThrownBy(() -> read(document)).extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_CAPABILITY_VERSION_INVALID);
    assertThat(read(document, ImportOptions.defaults().withVersion("2.0.0")).get(0).version()).isEqualTo("2.0.0");
  }

  @Test
  void responseReferencesAndExtensionsAreHandled() throws IOException {
    String document = """
        {"openapi": "3.1.0", "info": {"version": "1.0.0"}, "servers": [{"url": "https://api.example.com"}],
         "paths": {"x-generated": {"by": "tool"},
                   "/x": {"get": {"operationId": "getX", "responses": {"200": {"$ref": "#/components/responses/Ok"}}}}},
         "components": {"responses": {"Ok": {"description": "ok", "content": {"application/json": {"schema": {"type": "integer"}}}}}}}
        """;

    List<ImportedOperation> operations = read(document);

    assertThat(operations).hasSize(1);
    assertThat(JSON.readTree(operations.get(0).outputSchemaJson()).get("type").asText()).isEqualTo("integer");
    assertThat(read("{\"openapi\":\"3.1.0\",\"info\":{\"version\":\"1.0.0\"},\"servers\":[{\"url\":\"https://a.example.com\"}]}")).isEmpty();
  }

  @Test
  void malformedAndOversizedDocumentsAreRefused() {
    String duplicate = withServer("https://api.example.com").replace("{\"openapi\":\"3.1.0\",", "{\"openapi\":\"3.1.0\",\"openapi\":\"3.1.0\",");
    assertThatThrownBy(() -> read(duplicate)).extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_INVALID);

    String document = withServer("https://api.example.com");
    ImportOptions small = ImportOptions.defaults().withLimits(new OpenApiLimits(100, 10, 8, 1000));
    assertThatThrownBy(() -> read(document, small)).extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_TOO_LARGE);

    String tooDeepForJson = withSchema("{\"type\":\"array\",\"items\":".repeat(70) + "true" + "}".repeat(70), "{}");
    assertThatThrownBy(() -> read(tooDeepForJson)).extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_TOO_LARGE);

    String tooDeepForAManifest = withSchema("{\"type\":\"array\",\"items\":".repeat(40) + "true" + "}".repeat(40), "{}");
    assertThatThrownBy(() -> read(tooDeepForAManifest))
        .extracting(OpenApiImportTest::code).isEqualTo(OpenApiCodes.OPENAPI_SCHEMA_TOO_LARGE);
  }
}
