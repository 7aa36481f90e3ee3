package dev.capability.bench;

import dev.capability.kernel.api.CapabilityException;
import dev.capability.kernel.api.ExecutionResult;
import dev.capability.kernel.api.store.ApprovalRecord;
import dev.capability.kernel.api.store.DecisionRecord;
import dev.capability.kernel.api.store.ExecutionRecord;
import dev.capability.kernel.api.store.PlanRecord;
import dev.capability.kernel.api.store.ReceiptRecord;
import dev.capability.mcp.CapabilityMcpServer;
import dev.capability.mcp.EvidenceAccess;
import dev.capability.mcp.McpServerConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The MCP server on stdio for {@link McpBenchmark}, started as a child JVM: {@code POLICY ROOT}.
 * It records nothing, as the in-process kernel it is compared with records nothing.
 */
public final class McpStdioServer {
  private McpStdioServer() {}

  public static void main(String[] args) throws InterruptedException {
    try (CapabilityMcpServer server = CapabilityMcpServer.create(config(Path.of(args[0]), Path.of(args[1])))) {
      server.serveStdio(System.in, System.out);
    }
  }

  static McpServerConfig config(Path policy, Path root) {
    return new McpServerConfig(List.of(root), policy, null, Set.of(), Map.of("PATH", System.getenv("PATH")), new NoEvidence());
  }

  /** Evidence that is dropped: the benchmark measures the protocol, not the ledger. */
  private static final class NoEvidence implements EvidenceAccess {
    @Override
    public Store open(Path repository) {
      return new Store() {
        @Override
        public void record(ExecutionResult result) {}

        @Override
        public void record(DecisionRecord decision) {}

        @Override
        public long recordPlan(PlanRecord plan) {
          return 1;
        }

        @Override
        public long recordApproval(ApprovalRecord approval) {
          return 1;
        }

        @Override
        public long recordExecution(ExecutionRecord execution) {
          return 1;
        }

        @Override
        public long recordReceipt(ReceiptRecord receipt) {
          return 1;
        }
      };
    }

    @Override
    public List<Map<String, Object>> list(Path repository, int limit) {
      throw new CapabilityException("BENCH_NO_LEDGER", "the benchmark keeps no ledger");
    }

    @Override
    public Optional<Map<String, Object>> show(Path repository, long sequence) {
      throw new CapabilityException("BENCH_NO_LEDGER", "the benchmark keeps no ledger");
    }

    @Override
    public Map<String, Object> verify(Path repository) {
      throw new CapabilityException("BENCH_NO_LEDGER", "the benchmark keeps no ledger");
    }
  }
}
