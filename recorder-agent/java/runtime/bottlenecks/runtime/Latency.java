package bottlenecks.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The latency points of a causal recording (Coz's latency progress points, Curtsinger and Berger,
 * SOSP 2015; docs/causal.md, "Latency"): the transformer puts a call of {@link
 * #arrived} at the entry of the point's BEGIN method and one of {@link #departed} before every
 * return of its END method. Each event adds its virtual time (System.nanoTime less the pauses the
 * agent has inserted so far) to a sum, so that the agent can compute the exact integral of the
 * number of requests in flight over virtual time between any two readings, which with the
 * arrivals gives Little's law's mean latency W = L / λ.
 */
public final class Latency {
  private Latency() {}

  /**
   * Arrivals or departures at one point. An event increments {@code begun}, adds its time to
   * {@code times}, then increments {@code done}; {@link #read} sums them in the opposite order, so
   * the events it sees in {@code done} are among those in {@code times}, which are among those in
   * {@code begun}: when the two counts agree, the time sum is exactly that of the counted events
   * (LongAdders update with volatile writes and sum with volatile reads). One timestamp counted
   * without its event would be off by the whole clock, not by a few nanoseconds.
   */
  private static final class Events {
    private final LongAdder begun = new LongAdder();
    private final LongAdder times = new LongAdder();
    private final LongAdder done = new LongAdder();

    void record(long time) {
      begun.increment();
      times.add(time);
      done.increment();
    }

    /** The count at out[at] and the time sum at out[at + 1]; false if they never agreed. */
    boolean read(long[] out, int at) {
      for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        long count = done.sum();
        long sum = times.sum();
        if (begun.sum() == count) {
          out[at] = count;
          out[at + 1] = sum;
          return true;
        }
        Thread.yield(); // a writer between its updates, possibly descheduled
      }
      return false;
    }
  }

  /** Reads that find a writer mid-event before giving up (about a second of yields). */
  private static final int MAX_ATTEMPTS = 100_000;

  private static final Events[] ARRIVALS = new Events[Progress.MAX_POINTS];
  private static final Events[] DEPARTURES = new Events[Progress.MAX_POINTS];

  static {
    for (int i = 0; i < Progress.MAX_POINTS; i++) {
      ARRIVALS[i] = new Events();
      DEPARTURES[i] = new Events();
    }
  }

  private static final VarHandle LONGS =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

  /** The agent's running total of delay inserted, in ns (a native counter); null: none. */
  private static volatile ByteBuffer inserted;

  /** The agent hands over its counter of inserted delay before any point is instrumented. */
  public static void setInserted(ByteBuffer counter) {
    inserted = counter;
  }

  /** Now in virtual time: the pauses inserted so far are time a real speedup would not take. */
  private static long virtualNow() {
    ByteBuffer counter = inserted;
    long now = System.nanoTime();
    return counter == null ? now : now - (long) LONGS.getVolatile(counter, 0);
  }

  /** A request arrived at point {@code point} (the entry of its BEGIN method). */
  public static void arrived(int point) {
    ARRIVALS[point].record(virtualNow());
  }

  /** A request departed from point {@code point} (a return of its END method). */
  public static void departed(int point) {
    DEPARTURES[point].record(virtualNow());
  }

  /**
   * For points 0 .. count-1, five values each: arrivals so far and the sum of their virtual
   * times, departures so far and theirs, and the virtual time of the reading, no earlier than any
   * event counted (the agent's in_flight.h makes the integral of the number in flight of them).
   * An event not counted yet is counted at the next reading. Null if a writer kept a count
   * changing for about a second.
   */
  public static long[] read(int count) {
    long[] out = new long[5 * count];
    for (int i = 0; i < count; i++) {
      if (!ARRIVALS[i].read(out, 5 * i) || !DEPARTURES[i].read(out, 5 * i + 2)) return null;
      out[5 * i + 4] = virtualNow();
    }
    return out;
  }
}
