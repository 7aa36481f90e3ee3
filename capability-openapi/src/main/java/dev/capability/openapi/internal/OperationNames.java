package dev.capability.openapi.internal;

import dev.capability.capability.runtime.support.Printable;
import dev.capability.openapi.OpenApiCodes;
import dev.capability.openapi.OpenApiRefusedException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Capability names for operations. An {@code operationId} of letters, digits, {@code _}, {@code -}
 * and {@code .} is spelled in lower-case kebab form ({@code getPetById} becomes
 * {@code get-pet-by-id}); without one, the method and path are joined ({@code get /pets/{id}}
 * becomes {@code get-pets-id}). The result must be a capability name; nothing else is guessed.
 */
final class OperationNames {
  private static final Pattern OPERATION_ID = Pattern.compile("[A-Za-z0-9_.-]{1,100}");
  private static final Pattern NAME = Pattern.compile("[a-z0-9](?:[a-z0-9-]|\\.(?!\\.)){0,98}[a-z0-9]|[a-z0-9]");

  private OperationNames() {}

  static String fromOperationId(String operationId, String where) {
    if (!OPERATION_ID.matcher(operationId).matches()) {
      throw invalid(where, "operationId '" + Printable.escaped(operationId) + "' may only use letters, digits, '_', '-' and '.'");
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < operationId.length(); i++) {
      char c = operationId.charAt(i);
      if (Character.isUpperCase(c) && i > 0 && !Character.isUpperCase(operationId.charAt(i - 1)) && operationId.charAt(i - 1) != '_'
          && operationId.charAt(i - 1) != '-' && operationId.charAt(i - 1) != '.') {
        out.append('-');
      }
      out.append(c == '_' ? '-' : Character.toLowerCase(c));
    }
    return checked(out.toString(), where, "operationId '" + operationId + "'");
  }

  static String fromMethodAndPath(String method, String path, String where) {
    String joined = (method + " " + path).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    return checked(joined, where, "method and path '" + Printable.escaped(method + " " + path) + "'");
  }

  private static String checked(String name, String where, String source) {
    if (!NAME.matcher(name).matches()) {
      throw invalid(where, source + " gives '" + Printable.escaped(name) + "', which is not a capability name"
          + " (1 to 100 lower-case letters, digits, '-' and single '.', starting and ending with a letter or digit)");
    }
    return name;
  }

  private static OpenApiRefusedException invalid(String where, String why) {
    return new OpenApiRefusedException(OpenApiCodes.OPENAPI_NAME_INVALID, where + ": " + why);
  }
}
