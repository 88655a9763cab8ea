// What one instrumented call costs in the steady state (bench/calltree/micro.sh): three small
// methods that loop, 4,010,000 calls a round, every one of them instrumented under
// include=ProbeMicro,trivial=count. Prints the last round's wall nanoseconds per call; the
// script compares the process's CPU time with and without the agent.
//
//   java ProbeMicro ROUNDS
public class ProbeMicro {
  static int leaf(int x) {
    int s = 0;
    for (int i = 0; i < 4; i++) s += (x ^ i) * 31;
    return s;
  }

  static int mid(int x) {
    return leaf(x) + leaf(x + 1) + leaf(x + 2);
  }

  static int top(int x) {
    int s = 0;
    for (int i = 0; i < 100; i++) s += mid(x + i);
    return s;
  }

  public static void main(String[] args) {
    final int rounds = Integer.parseInt(args[0]);
    final long callsPerRound = 10_000L * (1 + 100 * 4);
    long sink = 0, last = 0;
    for (int r = 0; r < rounds; r++) {
      long start = System.nanoTime();
      for (int i = 0; i < 10_000; i++) sink += top(i);
      last = System.nanoTime() - start;
    }
    System.out.println((double) last / callsPerRound + " ns per call (last round, wall)" + (sink == 42 ? " " : ""));
  }
}
