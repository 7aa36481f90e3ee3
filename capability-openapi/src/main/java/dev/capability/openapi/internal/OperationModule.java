package dev.capability.openapi.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capability.openapi.ImportedOperation;
import dev.capability.openapi.invoker.HttpOperationInvoker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The module jar of one imported operation: the {@link HttpOperationInvoker} class file, copied
 * from the runtime's own class path, and the operation's binding. The jar is deterministic (stored
 * entries in a fixed order, a fixed time, no extra fields), so a document yields the same integrity
 * on every import.
 */
final class OperationModule {
  /** Where the module sits in the package. */
  static final String MODULE_PATH = "./lib/http-operation.jar";

  private static final String INVOKER_ENTRY = HttpOperationInvoker.class.getName().replace('.', '/') + ".class";
  private static final LocalDateTime FIXED_TIME = LocalDateTime.of(2000, 1, 1, 0, 0);
  private static final List<String> LOCATIONS = List.of("path", "query", "header", "cookie");
  private static final ObjectMapper JSON = new ObjectMapper();

  private OperationModule() {}

  static byte[] jar(ImportedOperation operation) {
    Map<String, byte[]> entries = new TreeMap<>();
    entries.put(HttpOperationInvoker.BINDING, binding(operation).getBytes(StandardCharsets.ISO_8859_1));
    entries.put(INVOKER_ENTRY, invokerClass());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes, StandardCharsets.UTF_8)) {
      for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
        ZipEntry zipEntry = new ZipEntry(entry.getKey());
        byte[] data = entry.getValue();
        CRC32 crc = new CRC32();
        crc.update(data);
        zipEntry.setMethod(ZipEntry.STORED);
        zipEntry.setSize(data.length);
        zipEntry.setCompressedSize(data.length);
        zipEntry.setCrc(crc.getValue());
        // local time, never converted through the default time zone: the bytes must not depend on it
        zipEntry.setTimeLocal(FIXED_TIME);
        zip.putNextEntry(zipEntry);
        zip.write(data);
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("an in-memory jar cannot fail to write", e);
    }
    return bytes.toByteArray();
  }

  /**
   * The binding in {@link java.util.Properties} form, every character outside a plain set written
   * as a {@code \\uXXXX} escape so that no name from the document can end a line or a key.
   */
  static String binding(ImportedOperation operation) {
    URI server = operation.server();
    String scope = operation.connect().scope();
    StringBuilder text = new StringBuilder();
    line(text, "format", HttpOperationInvoker.FORMAT);
    line(text, "capability", operation.name());
    line(text, "method", operation.method());
    line(text, "scheme", server.getScheme());
    line(text, "host", server.getHost());
    line(text, "port", scope.substring(scope.lastIndexOf(':') + 1));
    line(text, "base", server.getRawPath() == null ? "" : server.getRawPath());
    line(text, "path", operation.path());
    JsonNode input = parse(operation.inputSchemaJson());
    for (String location : LOCATIONS) {
      int i = 0;
      for (Iterator<String> names = input.path("properties").path(location).path("properties").fieldNames(); names.hasNext(); i++) {
        line(text, location + "." + i, names.next());
      }
    }
    operation.requestMediaType().ifPresent(media -> line(text, "body", media));
    return text.toString();
  }

  private static void line(StringBuilder text, String key, String value) {
    escape(text, key);
    text.append('=');
    escape(text, value);
    text.append('\n');
  }

  private static void escape(StringBuilder text, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-_./{}+;,".indexOf(c) >= 0) {
        text.append(c);
      } else {
        text.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      }
    }
  }

  private static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException("an imported schema is always valid JSON", e);
    }
  }

  private static byte[] invokerClass() {
    String resource = "/" + INVOKER_ENTRY;
    try (InputStream in = HttpOperationInvoker.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("the runtime's class path has no " + resource);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource + " from the runtime's class path", e);
    }
  }
}
