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
 * one method of its own, {@code Planted.regression}. EXTRA 0 is the baseline; 2, 5 and 10 are
 * regressions of that share of the run.
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
    regression(process.getProcessCpuTime() * Long.parseLong(args[3]) / 100);
  }

  // Busy for `nanos` of this thread's CPU time.
  static void regression(long nanos) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long end = threads.getCurrentThreadCpuTime() + nanos;
    long s = 0;
    while (threads.getCurrentThreadCpuTime() < end) for (int i = 0; i < 10_000; i++) s += (i * 31L) ^ (s >>> 3);
    sink = s;
  }
}
