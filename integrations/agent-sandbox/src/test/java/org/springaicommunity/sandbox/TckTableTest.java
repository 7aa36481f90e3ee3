package org.springaicommunity.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The TCK table of docs/integrations.md lists every TCK test, and says "disabled by design" for
 * exactly the tests a backend's TCK class disables, and "passed" for the others (which run).
 */
class TckTableTest {
  private static final Path DOC = Path.of("").toAbsolutePath().resolve("../../docs/integrations.md").normalize();
  private static final List<Class<? extends AbstractSandboxTCK>> BACKENDS =
      List.of(ProcessKernelSandboxTckTest.class, BwrapKernelSandboxTckTest.class, DockerKernelSandboxTckTest.class);

  @Test
  void theTableListsEveryTckTestAndWhatEachBackendDoesWithIt() throws IOException {
    Map<String, List<String>> rows = tableRows();
    Set<String> tckTests = Arrays.stream(AbstractSandboxTCK.class.getDeclaredMethods())
        .filter(method -> method.isAnnotationPresent(Test.class))
        .map(Method::getName)
        .collect(Collectors.toSet());

    assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(tckTests);
    for (int column = 0; column < BACKENDS.size(); column++) {
      Class<? extends AbstractSandboxTCK> backend = BACKENDS.get(column);
      for (Map.Entry<String, List<String>> row : rows.entrySet()) {
        String cell = row.getValue().get(column);
        if (disabledIn(backend, row.getKey())) {
          assertThat(cell).as(backend.getSimpleName() + " disables " + row.getKey()).startsWith("disabled by design");
        } else {
          assertThat(cell).as(backend.getSimpleName() + " runs " + row.getKey()).isEqualTo("passed");
        }
      }
    }
  }

  private static boolean disabledIn(Class<?> backend, String test) {
    return Arrays.stream(backend.getDeclaredMethods())
        .anyMatch(method -> method.getName().equals(test) && method.isAnnotationPresent(Disabled.class));
  }

  /** {@code | `test` | process | bwrap | docker |} rows, by test name. */
  private static Map<String, List<String>> tableRows() throws IOException {
    Map<String, List<String>> rows = new LinkedHashMap<>();
    for (String line : Files.readAllLines(DOC)) {
      if (line.startsWith("| `test")) {
        List<String> cells = new ArrayList<>(Arrays.stream(line.split("\\|")).map(String::strip).filter(cell -> !cell.isEmpty()).toList());
        String name = cells.remove(0).replace("`", "");
        assertThat(cells).as(line).hasSize(BACKENDS.size());
        assertThat(rows.put(name, cells)).as("a second row for " + name).isNull();
      }
    }
    return rows;
  }
}
