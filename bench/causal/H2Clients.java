import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

// A real program from Debian's Java packages (H2, libh2-java) with a tunable hot path, for
// bench/causal/predict.sh: client threads of one in-memory H2 database, each request a report
// (an aggregate over the first REPORT_ROWS rows) and LOOKUPS point queries. Halving REPORT_ROWS
// or LOOKUPS is a real 50% speedup of report() or lookups(), to compare with what the causal
// profile predicted. Each request is one unit of progress (H2Clients.requestDone); the program
// prints requests per second.
//
//   java -cp /usr/share/java/h2.jar:. H2Clients SECONDS [THREADS REPORT_ROWS LOOKUPS]
//   (default 4 threads, 4000 rows, 100 lookups; SECONDS 0: a fixed 400 requests per thread)
public class H2Clients {
  static final int ROWS = 20_000;
  static volatile long sink;

  // The bound varies with each call: H2 gives an unchanged table's prepared query its previous
  // result again, which would make the report cost nothing.
  static void report(PreparedStatement q, int rows, int seed) throws Exception {
    q.setInt(1, rows - seed % 16);
    try (ResultSet r = q.executeQuery()) {
      while (r.next()) sink += r.getLong(2);
    }
  }

  static void lookups(PreparedStatement q, int count, int seed) throws Exception {
    for (int i = 0; i < count; i++) {
      q.setInt(1, 1 + (seed * 7919 + i * 104729) % ROWS);
      try (ResultSet r = q.executeQuery()) {
        while (r.next()) sink += r.getLong(1);
      }
    }
  }

  static void requestDone() {}

  public static void main(String[] args) throws Exception {
    long seconds = Long.parseLong(args[0]);
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int reportRows = args.length > 2 ? Integer.parseInt(args[2]) : 4000;
    int lookups = args.length > 3 ? Integer.parseInt(args[3]) : 100;
    String url = "jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t(id INT PRIMARY KEY, g INT, v BIGINT)");
      s.execute("INSERT INTO t SELECT X, MOD(X, 50), X * 3 FROM SYSTEM_RANGE(1, " + ROWS + ")");
    }
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    long[] done = new long[threads];
    Thread[] clients = new Thread[threads];
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      int me = t;
      clients[t] =
          new Thread(
              () -> {
                try (Connection c = DriverManager.getConnection(url);
                    PreparedStatement rq =
                        c.prepareStatement("SELECT g, SUM(v) FROM t WHERE id <= ? GROUP BY g");
                    PreparedStatement lq = c.prepareStatement("SELECT v FROM t WHERE id = ?")) {
                  while (seconds > 0 ? System.nanoTime() < deadline : done[me] < 400) {
                    report(rq, reportRows, (int) done[me]);
                    lookups(lq, lookups, (int) done[me] + me * 1000);
                    requestDone();
                    done[me]++;
                  }
                } catch (Exception e) {
                  throw new RuntimeException(e);
                }
              },
              "client-" + t);
      clients[t].start();
    }
    long total = 0;
    for (int t = 0; t < threads; t++) {
      clients[t].join();
      total += done[t];
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    System.out.printf("%d requests, %.1f requests/s%n", total, total / elapsed);
  }
}
