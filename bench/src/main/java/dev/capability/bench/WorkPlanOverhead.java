package dev.capability.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * {@link WorkPlanBenchmark}'s four operations, each work-plan operation timed right after its
 * baseline and the differences taken pair by pair, in wall time and in the calling thread's CPU
 * time. JMH times each method in its own fork, minutes apart; on a shared machine whose load
 * changes by the minute, a difference of those medians measures the load as much as the code.
 * Pairs taken milliseconds apart, and CPU time, which a busy machine does not inflate, do not.
 *
 * <p>Run with {@code java -cp bench/target/benchmarks.jar dev.capability.bench.WorkPlanOverhead [rounds]}.
 */
public final class WorkPlanOverhead {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  /** Rounds between fresh stores, as one JMH iteration of verifyPhase uses one store. */
  private static final int ROUNDS_PER_STORE = 50;
  private static final int WARM_UP_ROUNDS = 30;

  private WorkPlanOverhead() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    WorkPlanBenchmark bench = new WorkPlanBenchmark();
    bench.setUp();
    long[][] wall = new long[6][rounds];
    long[][] cpu = new long[6][rounds];
    try {
      for (int round = -WARM_UP_ROUNDS; round < rounds; round++) {
        if ((round + WARM_UP_ROUNDS) % ROUNDS_PER_STORE == 0) {
          bench.freshPlan();
        }
        long[] save = time(bench::saveTwentyPhasePlan);
        long[] checks = time(bench::twentyKernelChecks);
        long[] verify = time(bench::verifyPhase);
        long[] run = time(bench::kernelRunInTheRepository);
        if (round >= 0) {
          long[][] taken = {save, checks, verify, run};
          for (int i = 0; i < 4; i++) {
            wall[i][round] = taken[i][0];
            cpu[i][round] = taken[i][1];
          }
          wall[4][round] = save[0] - checks[0];
          cpu[4][round] = save[1] - checks[1];
          wall[5][round] = verify[0] - run[0];
          cpu[5][round] = verify[1] - run[1];
        }
      }
    } finally {
      bench.tearDown();
    }
    String[] names = {"saveTwentyPhasePlan", "twentyKernelChecks", "verifyPhase", "kernelRunInTheRepository",
        "save - checks, paired", "verify - run, paired"};
    System.out.printf("%d rounds; load average %.2f%n", rounds, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    System.out.printf("%-26s %24s   %24s%n", "", "wall ms: p25 / median", "thread CPU ms: p25 / median");
    for (int i = 0; i < names.length; i++) {
      Arrays.sort(wall[i]);
      Arrays.sort(cpu[i]);
      System.out.printf("%-26s %11.3f / %10.3f   %11.3f / %10.3f%n", names[i],
          wall[i][rounds / 4] / 1e6, wall[i][rounds / 2] / 1e6, cpu[i][rounds / 4] / 1e6, cpu[i][rounds / 2] / 1e6);
    }
  }

  /** Wall and thread CPU nanoseconds of one call. */
  private static long[] time(Runnable operation) {
    long cpu = THREADS.getCurrentThreadCpuTime();
    long wall = System.nanoTime();
    operation.run();
    return new long[] {System.nanoTime() - wall, THREADS.getCurrentThreadCpuTime() - cpu};
  }
}
