import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What C2 did in two runs of one program, from HotSpot's -XX:+LogCompilation files (to see
 * why C2 works harder under the call-tree agent; bench/LOG.md, "Call-tree mode", "Eleventh
 * round"). Run by bench/calltree/jit_log.sh; by hand: {@code java JitLog.java BASE.log AGENT.log}.
 *
 * <p>Per log: C2's compilations (a task without a {@code level} attribute is C2's), how long they
 * took (each task's start to its {@code task_done}, wall time), how much of the run C2 was busy,
 * the length of its queue over the run and at the end, the uncommon traps that ran (by reason),
 * C2 code made not entrant and methods C2 compiled more than once. Then the two runs' C2 methods
 * side by side: those both compiled, and those only one did, with when in the run the second
 * run's own methods were first compiled.
 */
public final class JitLog {
  private static final Pattern ATTR = Pattern.compile("(\\w+)='([^']*)'");

  /** One run's log, reduced to what the report needs. */
  static final class Run {
    final String name;
    double end; // the last stamp in the log: the run's length in seconds
    int c2Tasks, c2Osr, c2Bytes, c2Inlined;
    double c2Seconds;
    final Map<String, Integer> c2Compiles = new HashMap<>(); // method -> standard C2 compilations
    final Map<String, Double> c2Time = new HashMap<>(); // method -> seconds in them
    final Map<String, Double> firstC2 = new HashMap<>(); // method -> stamp of its first
    final Map<String, Integer> traps = new TreeMap<>(); // uncommon traps that ran, by reason
    int c2NotEntrant;
    // C2's queue: +1 at each C2 task_queued, -1 at each C2 task start. The log is not in time
    // order (the compiler threads' sections follow the main thread's), so the time it held
    // tasks is summed per change: a change of d at time t counts d * (end - t).
    int queue;
    double queueStamps; // the sum of d * t

    Run(String name) {
      this.name = name;
    }

    void queueChange(double at, int delta) {
      queue += delta;
      queueStamps += delta * at;
    }

    /** Tasks in C2's queue, on average over the run. */
    double meanQueue() {
      return (queue * end - queueStamps) / end;
    }
  }

  static Map<String, String> attrs(String line) {
    Map<String, String> a = new HashMap<>();
    Matcher m = ATTR.matcher(line);
    while (m.find()) a.put(m.group(1), m.group(2));
    return a;
  }

  static Run read(String path) throws IOException {
    Run run = new Run(path);
    Map<String, String> task = null; // the C2 task being read, until its task_done
    try (BufferedReader in = Files.newBufferedReader(Paths.get(path), StandardCharsets.ISO_8859_1)) {
      for (String line; (line = in.readLine()) != null; ) {
        if (!line.startsWith("<")) continue;
        int stamp = line.indexOf("stamp='");
        if (stamp >= 0) {
          String at = line.substring(stamp + 7, line.indexOf('\'', stamp + 7));
          run.end = Math.max(run.end, Double.parseDouble(at));
        }
        boolean c2 = !line.contains(" level='");
        if (line.startsWith("<task_queued ") && c2) {
          run.queueChange(Double.parseDouble(attrs(line).get("stamp")), +1);
        } else if (line.startsWith("<task ")) {
          task = c2 ? attrs(line) : null;
          if (task != null) run.queueChange(Double.parseDouble(task.get("stamp")), -1);
        } else if (line.startsWith("<task_done") && task != null) {
          Map<String, String> done = attrs(line);
          double seconds = Double.parseDouble(done.get("stamp")) - Double.parseDouble(task.get("stamp"));
          String method = task.get("method");
          run.c2Tasks++;
          run.c2Seconds += seconds;
          run.c2Bytes += Integer.parseInt(task.getOrDefault("bytes", "0"));
          run.c2Inlined += Integer.parseInt(done.getOrDefault("inlined_bytes", "0"));
          if ("osr".equals(task.get("compile_kind"))) {
            run.c2Osr++;
          } else {
            run.c2Compiles.merge(method, 1, Integer::sum);
            run.c2Time.merge(method, seconds, Double::sum);
            run.firstC2.putIfAbsent(method, Double.parseDouble(task.get("stamp")));
          }
          task = null;
        } else if (line.startsWith("<uncommon_trap thread=") && !line.contains(" count='")) {
          // A trap that ran (the ones C2 emits while compiling carry a bci, not a thread; the
          // second line of a trap that ran repeats it with its count).
          run.traps.merge(attrs(line).get("reason"), 1, Integer::sum);
        } else if (line.startsWith("<make_not_entrant ") && line.contains("compiler='c2'")) {
          run.c2NotEntrant++;
        }
      }
    }
    return run;
  }

  static Run readOrFail(String path) {
    try {
      Run run = read(path);
      if (run.end == 0) fail("JitLog: '" + path + "' is not a log of -XX:+LogCompilation (no time stamps)");
      return run;
    } catch (IOException e) {
      fail("JitLog: cannot read '" + path + "': " + e);
      return null; // not reached
    }
  }

  static void fail(String message) {
    System.err.println(message);
    System.exit(2);
  }

  static void report(Run r) {
    int recompiled = 0, extra = 0;
    for (int n : r.c2Compiles.values()) {
      if (n > 1) recompiled++;
      extra += n - 1;
    }
    int traps = 0;
    for (int n : r.traps.values()) traps += n;
    System.out.printf("%s: run %.1f s%n", r.name, r.end);
    System.out.printf("  C2: %d compilations (%d on-stack), %d methods, %d KB of bytecode, %d KB inlined%n",
        r.c2Tasks, r.c2Osr, r.c2Compiles.size(), r.c2Bytes / 1024, r.c2Inlined / 1024);
    System.out.printf("  C2's compilations took %.1f s: busy %.0f%% of the run%n",
        r.c2Seconds, 100 * r.c2Seconds / r.end);
    System.out.printf("  C2's queue: %.1f tasks on average, %d at the end%n", r.meanQueue(), r.queue);
    System.out.printf("  recompiled by C2: %d methods, %d compilations more; C2 code made not entrant: %d%n",
        recompiled, extra, r.c2NotEntrant);
    System.out.printf("  uncommon traps that ran: %d %s%n", traps, r.traps);
  }

  static void compare(Run a, Run b) {
    List<String> both = new ArrayList<>(), onlyA = new ArrayList<>(), onlyB = new ArrayList<>();
    for (String m : a.c2Compiles.keySet()) (b.c2Compiles.containsKey(m) ? both : onlyA).add(m);
    for (String m : b.c2Compiles.keySet()) if (!a.c2Compiles.containsKey(m)) onlyB.add(m);
    System.out.println(
        "methods compiled by C2 (standard compilations: count, seconds in the first run | in the second):");
    line("in both", both, a, b);
    line("first only", onlyA, a, b);
    line("second only", onlyB, a, b);
    List<Double> when = new ArrayList<>();
    for (String m : onlyB) when.add(b.firstC2.get(m) / b.end);
    List<Double> whenBoth = new ArrayList<>();
    for (String m : both) whenBoth.add(b.firstC2.get(m) / b.end);
    System.out.printf("first C2 compilation in the second run, as a fraction of it (quartiles): "
        + "second only %s, in both %s%n", quartiles(when), quartiles(whenBoth));
  }

  static void line(String label, List<String> methods, Run a, Run b) {
    System.out.printf("  %-12s %5d methods | %5d, %6.2f s | %5d, %6.2f s%n", label, methods.size(),
        sum(a.c2Compiles, methods), seconds(a, methods), sum(b.c2Compiles, methods), seconds(b, methods));
  }

  static int sum(Map<String, Integer> counts, List<String> methods) {
    int n = 0;
    for (String m : methods) n += counts.getOrDefault(m, 0);
    return n;
  }

  static double seconds(Run r, List<String> methods) {
    double s = 0;
    for (String m : methods) s += r.c2Time.getOrDefault(m, 0.0);
    return s;
  }

  static String quartiles(List<Double> xs) {
    if (xs.isEmpty()) return "-";
    Collections.sort(xs);
    int last = xs.size() - 1;
    return String.format("%.2f %.2f %.2f", xs.get(last / 4), xs.get(last / 2), xs.get(3 * last / 4));
  }

  public static void main(String[] args) {
    if (args.length != 2) fail("usage: java JitLog.java FIRST.log SECOND.log (files of -XX:+LogCompilation)");
    Run a = readOrFail(args[0]), b = readOrFail(args[1]);
    report(a);
    report(b);
    compare(a, b);
  }
}
