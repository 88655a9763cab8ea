import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.stream.StreamResult;
import javax.xml.transform.stream.StreamSource;

/**
 * A regression planted by a parameter, for the diff gate's power measurement (docs/performance.md,
 * "The diff gate"): runs Debian's Xalan on an XSLT report ROUNDS times, then spends EXTRA percent
 * of the process's CPU time so far (JIT and GC threads included, as a recording counts them) in
 * one method of its own, {@code Planted.regression}, its work timed beforehand so that it reads
 * no clock. EXTRA 0 is the baseline; 2, 5 and 10 are regressions of that share of the run.
 *
 * <pre>java -cp XALAN_JARS:. Planted ORDERS.xml REPORT.xsl ROUNDS EXTRA</pre>
 */
public final class Planted {
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    com.sun.management.OperatingSystemMXBean process =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    TransformerFactory factory = new org.apache.xalan.processor.TransformerFactoryImpl();
    for (int round = 0; round < Integer.parseInt(args[2]); round++) {
      Transformer t = factory.newTransformer(new StreamSource(new File(args[1])));
      t.transform(new StreamSource(new File(args[0])), new StreamResult(new java.io.StringWriter()));
    }
    long extra = process.getProcessCpuTime() * Long.parseLong(args[3]) / 100;
    double rate = iterationsPerNano();
    regression(Math.round(extra * rate));
  }

  // Iterations of regression's loop per nanosecond of CPU, timed on a copy of it: a fixed amount
  // of work, the same for every EXTRA (0 too), outside regression. Timed until a duration
  // instead, its cost would vary by a few percent of the run and hide a small regression.
  static double iterationsPerNano() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    timedCopy(1L << 25);  // compiled by the end of it
    long start = threads.getCurrentThreadCpuTime();
    timedCopy(1L << 25);
    return (double) (1L << 25) / (threads.getCurrentThreadCpuTime() - start);
  }

  // Busy for `iterations` turns of a loop that calls nothing, so that every sample of it is in
  // this method's code: with a call inside (a clock read), the JIT's debug information can put
  // the loop's samples on the inlined callee.
  static void regression(long iterations) {
    long s = sink;
    for (long i = 0; i < iterations; i++) s += (i * 31L) ^ (s >>> 3);
    sink = s;
  }

  static void timedCopy(long iterations) {
    long s = sink;
    for (long i = 0; i < iterations; i++) s += (i * 31L) ^ (s >>> 3);
    sink = s;
  }
}
