package bottlenecks.runtime;

import java.util.concurrent.atomic.LongAdder;

/**
 * The progress points of a causal recording (seed 003 sec. 3; Coz's throughput points): the
 * agent has the transformer put a call of {@link #completed} before every return of each method
 * named by {@code progress=}, and reads the sums at the start and end of each experiment. A
 * LongAdder per point: the threads of a server complete calls at once, and one contended counter
 * would slow exactly the code being measured.
 */
public final class Progress {
  private Progress() {}

  /** At most this many points (the agent refuses more). */
  public static final int MAX_POINTS = 64;

  private static final LongAdder[] COMPLETED = new LongAdder[MAX_POINTS];

  static {
    for (int i = 0; i < MAX_POINTS; i++) COMPLETED[i] = new LongAdder();
  }

  /** One more completed call at point {@code point}. */
  public static void completed(int point) {
    COMPLETED[point].increment();
  }

  /** The calls completed so far at points 0 .. count-1. */
  public static long[] sums(int count) {
    long[] out = new long[count];
    for (int i = 0; i < count; i++) out[i] = COMPLETED[i].sum();
    return out;
  }
}
