package bottlenecks.runtime;

/**
 * Ids of instrumented methods: the transformer registers each method it instruments and bakes
 * the id into the method's {@code Probe.enter(id)}; the agent takes the names registered since
 * its previous call at each flush, after draining the trees (so every id a drained node holds
 * has its name by then).
 */
public final class MethodNames {
  private MethodNames() {}

  private static final Object LOCK = new Object();
  private static String[] names = new String[1024];
  private static int size;
  private static int taken;

  /** The id of a new method named {@code pkg.Class.method} (several overloads: several ids). */
  public static int register(String name) {
    synchronized (LOCK) {
      if (size == names.length) {
        String[] bigger = new String[size * 2];
        System.arraycopy(names, 0, bigger, 0, size);
        names = bigger;
      }
      names[size] = name;
      return size++;
    }
  }

  /** The names registered since the previous call, in id order (the first has id = ids taken so far). */
  public static String[] takeNew() {
    synchronized (LOCK) {
      String[] out = new String[size - taken];
      System.arraycopy(names, taken, out, 0, out.length);
      taken = size;
      return out;
    }
  }
}
