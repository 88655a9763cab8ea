import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

// Keeps the JIT compilers busy for args[0] ms: varied work through many JDK methods (formatting,
// hashing, streams, regular expressions, big integers), each of which C1 and then C2 compile as
// it gets hot. Then prints the process's CPU time (utime + stime of /proc/self/stat, which
// ProcessHandle reads; 10 ms steps) at main's start and end, in ns: "process_cpu_ns START END".
public class Jitted {
  static volatile long sink;

  public static void main(String[] args) {
    final long start = cpuNs();
    final long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
    final Pattern words = Pattern.compile("([a-z]+)-(\\d+)");
    long s = 0;
    for (int round = 0; System.nanoTime() < end; round++) {
      List<String> names = new ArrayList<>();
      for (int i = 0; i < 200; i++) names.add(String.format("item-%d", (round * 31 + i) % 97));
      Map<String, Integer> counts = new HashMap<>();
      for (String n : names) counts.merge(n, 1, Integer::sum);
      s += counts.values().stream().mapToInt(Integer::intValue).sum();
      s += names.stream().filter(n -> words.matcher(n).matches()).map(String::toUpperCase).sorted()
               .collect(Collectors.joining(",")).length();
      s += BigInteger.valueOf(round + 3).pow(40).mod(BigInteger.valueOf(1_000_003)).longValue();
    }
    sink = s;
    System.out.println("process_cpu_ns " + start + " " + cpuNs());
  }

  static long cpuNs() { return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos(); }
}
