package dev.capability.openapi;

import dev.capability.kernel.api.CapabilityException;
import org.jspecify.annotations.Nullable;

/** An OpenAPI document was refused; {@link #code()} is one of {@link OpenApiCodes}. */
public class OpenApiRefusedException extends CapabilityException {
  private static final long serialVersionUID = 1L;

  public OpenApiRefusedException(String code, String message) {
    super(code, message);
  }

  public OpenApiRefusedException(String code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }
}
