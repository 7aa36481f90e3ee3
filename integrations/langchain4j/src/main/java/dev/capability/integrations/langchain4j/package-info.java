/**
 * The Capability Kernel for LangChain4j: {@link dev.capability.integrations.langchain4j.LangChain4jTools}
 * turns the framework-neutral agent tools into {@code ToolSpecification} and {@code ToolExecutor}
 * pairs for {@code AiServices.builder(...).tools(map)}, and {@link
 * dev.capability.integrations.langchain4j.KernelCodeExecutionEngine} is LangChain4j's {@code
 * CodeExecutionEngine} on a command the operator policy allows (docs/integrations.md).
 */
@NullMarked
package dev.capability.integrations.langchain4j;

import org.jspecify.annotations.NullMarked;
