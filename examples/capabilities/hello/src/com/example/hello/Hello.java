package com.example.hello;

import dev.capability.capability.api.Capability;
import dev.capability.capability.api.CapabilityContext;

/** Greets the name in its input. Declares no effects, so it runs under the deny-all policy. */
public final class Hello implements Capability {
  @Override
  public String execute(String inputJson, CapabilityContext context) {
    String name = inputJson.replaceAll("(?s).*\"name\"\\s*:\\s*\"([^\"\\\\]*)\".*", "$1");
    context.log("greeting " + name);
    return "{\"greeting\":\"Hello, " + name + "!\"}";
  }

  @Override
  public boolean verify(String inputJson, String outputJson, CapabilityContext context) {
    return outputJson.startsWith("{\"greeting\":");
  }
}
