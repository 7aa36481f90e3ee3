package dev.capability.examples.springai;

import dev.capability.integrations.springai.CapabilityToolCallbacks;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallAdvisor;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application with a Spring AI agent that works in a repository through the
 * Capability Kernel. The capability-spring-ai auto-configuration builds the kernel and the tool
 * callbacks from the operator's properties; this application only hands the callbacks to its
 * {@link ChatClient}. docs/integrations.md quotes this file.
 *
 * <p>Usage: {@code SpringAiExample --capability.policy-path=POLICY --capability.repository=REPO}
 * (or the same in {@code application.properties}). The model is {@link ScriptedAgentModel}, which
 * needs no network; a real application declares no {@link ChatModel} bean and adds its model's
 * Spring AI starter instead.
 */
@SpringBootApplication
public class SpringAiExample {
  /** What the application asks the agent. */
  static final String QUESTION = "What changed in the repository, and what does its log say?";

  public static void main(String[] args) {
    SpringApplication.run(SpringAiExample.class, args);
  }

  /** The model: scripted here, a real one in an application. */
  @Bean
  ChatModel chatModel() {
    return new ScriptedAgentModel();
  }

  // spring-ai-client:start
  /** The agent: a chat client that may call the kernel's tools, and runs the tool-calling loop. */
  @Bean
  ChatClient agent(ChatModel model, CapabilityToolCallbacks capabilityTools) {
    return ChatClient.builder(model)
        .defaultAdvisors(ToolCallAdvisor.builder().build())
        .defaultToolCallbacks(capabilityTools.asList())
        .build();
  }
  // spring-ai-client:end

  /** Asks {@link #QUESTION} once at startup and prints the agent's answer. */
  @Bean
  CommandLineRunner ask(ChatClient agent) {
    return args -> System.out.println(agent.prompt().user(QUESTION).call().content());
  }
}
