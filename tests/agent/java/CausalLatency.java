// A request loop whose latency is known by construction (Coz's latency points): each request is
// a part A of 3 units of work and a part B of 1, from received() to replied(); between requests
// the loop thinks for 2 units, outside any request; a housekeeping thread works beside it, on
// and off, for no request. Speeding A up by s shortens the mean latency by s x 3/4, B by s x 1/4,
// thinking and housekeeping not at all; thinking does shorten the period between replies, which
// a throughput point at replied() shows. Housekeeping's experiments pause the request loop, which
// lengthens each request in wall time, not in the virtual time a latency is measured in.
//
//   java CausalLatency SECONDS
public class CausalLatency {
  static volatile long sink;
  static volatile long housekept;
  static final long UNIT = 500;

  static long spin(long units) {
    long s = 0;
    for (long u = 0; u < units; u++)
      for (int i = 0; i < 1000; i++) s = s * 31 + i;
    return s;
  }

  static void received() {}

  static void partA() { sink += spin(3 * UNIT); }

  static void partB() { sink += spin(UNIT); }

  static void replied() {}

  static void think() { sink += spin(2 * UNIT); }

  static void housekeeping() { housekept += spin(UNIT); }

  public static void main(String[] args) throws Exception {
    long deadline = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
    Thread keeper = new Thread(() -> {
      try {
        while (true) {
          housekeeping();
          Thread.sleep(1); // about half a CPU: the request loop keeps one to itself
        }
      } catch (InterruptedException e) {
        return;
      }
    }, "housekeeping");
    keeper.setDaemon(true);
    keeper.start();
    long requests = 0;
    while (System.nanoTime() < deadline) {
      received();
      partA();
      partB();
      replied();
      think();
      requests++;
    }
    System.out.println(requests + " requests");
  }
}
