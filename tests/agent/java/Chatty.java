// A program whose exclusive times under the call-tree mode are mostly probe cost: main calls
// step() tens of millions of times, and step() does almost nothing (a two-turn loop, so the
// default trivial=skip still instruments it).
//
//   java Chatty CALLS
public class Chatty {
  static volatile long sink;

  static long step(long x) {
    long s = x;
    for (int i = 0; i < 2; i++) s = s * 31 + i;
    return s;
  }

  public static void main(String[] args) {
    long calls = Long.parseLong(args[0]);
    long s = 0;
    for (long i = 0; i < calls; i++) s += step(i);
    sink = s;
    System.out.println(calls);
  }
}
