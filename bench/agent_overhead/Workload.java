// A CPU-bound workload for measuring the recorder's overhead: `threads` workers each do the same
// fixed amount of work (hashing, sorting and map updates through a few call levels, so stacks
// are realistic), after a warm-up. Prints the wall time of the measured part in ms and the
// workers' own CPU time in microseconds (per-thread clocks, ns resolution); JVM start-up and JIT
// warm-up are excluded. The workers' CPU time is the robust number on a shared machine (wall
// time also moves with everyone else's load): it grows with every cost sampling imposes on the
// sampled threads (handshakes, safepoint polls, cache disturbance).
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

public class Workload {
  static volatile long sink;

  static long mix(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    return x;
  }

  static long sortChunk(long seed) {
    long[] a = new long[2048];
    for (int i = 0; i < a.length; i++) a[i] = mix(seed + i);
    Arrays.sort(a);
    return a[a.length / 2];
  }

  static long countWords(long seed) {
    Map<Long, Integer> counts = new HashMap<>();
    for (int i = 0; i < 4096; i++) counts.merge(mix(seed + i) & 1023, 1, Integer::sum);
    return counts.size();
  }

  static long unit(long seed) {
    return sortChunk(seed) + countWords(seed);
  }

  static void work(int units, long seed) {
    long s = 0;
    for (int i = 0; i < units; i++) s += unit(seed + i * 7919L);
    sink += s;
  }

  static final AtomicLong WORKER_CPU_NS = new AtomicLong();

  static long runAll(int threads, int units) throws InterruptedException {
    Thread[] ts = new Thread[threads];
    WORKER_CPU_NS.set(0);
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      final long seed = t * 1_000_003L;
      ts[t] = new Thread(() -> {
        work(units, seed);
        WORKER_CPU_NS.addAndGet(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
      }, "worker-" + t);
      ts[t].start();
    }
    for (Thread t : ts) t.join();
    return System.nanoTime() - start;
  }

  public static void main(String[] args) throws Exception {
    int threads = Integer.parseInt(args[0]);
    int units = Integer.parseInt(args[1]);
    // Optional: idle threads parked for the whole run, like a server's pool threads waiting for
    // work; they cost the sampler per tick without doing anything.
    int idle = args.length > 2 ? Integer.parseInt(args[2]) : 0;
    for (int i = 0; i < idle; i++) {
      Thread t = new Thread(() -> {
        while (true) LockSupport.park();
      }, "idle-" + i);
      t.setDaemon(true);
      t.start();
    }
    runAll(threads, units / 4);  // warm-up: JIT, class loading, the agent's first ticks
    long wall = runAll(threads, units);
    System.out.println(wall / 1_000_000 + " " + WORKER_CPU_NS.get() / 1_000);
  }
}
