/** The implementation of the LangChain4j adapter: schema conversion and the tool executor. */
package dev.capability.integrations.langchain4j.internal;
