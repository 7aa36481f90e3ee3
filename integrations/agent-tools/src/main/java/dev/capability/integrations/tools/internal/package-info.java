/** The implementation of the agent tools: argument checks, the five tools and their JSON results. */
package dev.capability.integrations.tools.internal;
