// Everything that makes a stack hard to walk from a signal, on args[0] threads for args[1] ms:
// garbage collections, exceptions unwinding, lambdas and reflection, contended monitors,
// deep recursion, array-copy stubs, and compiled code deoptimised when a class loaded late
// breaks what the JIT assumed about a call site.
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

public class Churn {
  interface Shape {
    long area(long x);
  }

  static final class Square implements Shape {
    public long area(long x) { return x * x; }
  }

  // Loaded only after the hot loop was compiled with Square as the only Shape.
  static final class Late implements Shape {
    public long area(long x) { return x + 1; }
  }

  static final Object LOCK = new Object();
  static volatile long sink;
  static volatile Shape shape = new Square();

  static long recurse(int depth) {
    return depth == 0 ? System.nanoTime() & 7 : 1 + recurse(depth - 1);
  }

  static long step(int round) throws Exception {
    long s = 0;
    for (int i = 0; i < 2000; i++) s += shape.area(i);
    List<byte[]> garbage = new ArrayList<>();
    for (int i = 0; i < 64; i++) garbage.add(new byte[4096]);
    s += garbage.size();
    try {
      if (round % 3 == 0) throw new IllegalStateException("round " + round);
    } catch (IllegalStateException e) {
      s += e.getStackTrace().length;
    }
    IntUnaryOperator f = x -> x * 31 + round;
    s += f.applyAsInt(round);
    Method m = Churn.class.getDeclaredMethod("recurse", int.class);
    s += (Long) m.invoke(null, 200 + round % 50);
    synchronized (LOCK) {
      s += System.identityHashCode(garbage);
    }
    int[] big = new int[1 << 16];
    int[] copy = new int[big.length];
    System.arraycopy(big, 0, copy, 0, big.length);
    return s + copy.length;
  }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    long end = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000L;
    long lateAt = System.nanoTime() + Long.parseLong(args[1]) * 500_000L;
    Thread[] threads = new Thread[n];
    for (int t = 0; t < n; t++) {
      threads[t] = new Thread(() -> {
        long s = 0;
        try {
          for (int round = 0; System.nanoTime() < end; round++) s += step(round);
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
        sink += s;
      }, "churn-" + t);
      threads[t].start();
    }
    while (System.nanoTime() < lateAt) Thread.sleep(10);
    shape = (Shape) Class.forName("Churn$Late").getDeclaredConstructor().newInstance();
    for (Thread t : threads) t.join();
  }
}
