import bottlenecks.runtime.Latency;
import bottlenecks.runtime.Progress;

// What a progress point's probe costs a call (docs/performance.md, "Causal profiling"): THREADS
// threads each calling, in a tight loop, a throughput probe (Progress.completed), a latency
// point's two probes (Latency.arrived and departed, a request's), or, to compare, just the two
// clock reads those make, the runtime on the boot class path and no agent. Every thread hits one
// point, the worst case for the counters.
//
//   java -Xbootclasspath/a:bottlenecks-runtime.jar ProbeCost THREADS
public class ProbeCost {
  static final long CALLS = 20_000_000;
  static long sink;

  static void loop(String probe) {
    switch (probe) {
      case "completed":
        for (long i = 0; i < CALLS; i++) Progress.completed(0);
        break;
      case "latency":
        for (long i = 0; i < CALLS; i++) {
          Latency.arrived(1);
          Latency.departed(1);
        }
        break;
      default:
        long sum = 0;
        for (long i = 0; i < CALLS; i++) sum += System.nanoTime() - System.nanoTime();
        sink += sum;
    }
  }

  public static void main(String[] args) throws Exception {
    int threads = Integer.parseInt(args[0]);
    for (int round = 0; round < 3; round++) {
      for (String probe : new String[] {"clock", "completed", "latency"}) {
        Thread[] running = new Thread[threads];
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) (running[t] = new Thread(() -> loop(probe))).start();
        for (Thread t : running) t.join();
        if (round == 2)
          System.out.printf("%d threads, %-9s %6.1f ns an iteration%n", threads, probe,
              (System.nanoTime() - start) / (double) CALLS);
      }
    }
  }
}
