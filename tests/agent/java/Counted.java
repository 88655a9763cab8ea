import java.util.function.IntUnaryOperator;

// Calls whose counts are known by construction, for the call-tree mode's end-to-end test
// (agent_calltree_test.cpp, which repeats these numbers): loops, recursion (mutual too), an exception through
// three frames, eight callees in turn from one node, threads (some ended, one with a large id, one whose getId() is instrumented), lambdas, a static initialiser, constructors (code before super()
// included, one that throws there, and one whose super constructor throws) and a bridge method. Prints two wall times in ns: of the
// sleeping section, which bounds its recorded inclusive time from above, and of main's body,
// which main's recorded inclusive time must cover.
public class Counted {
  static final int LOOP = 1000;
  static final int FIB = 15; // fib(15) makes 2 * fib(16) - 1 = 1973 calls
  static final int THROWS = 50;
  static final int THREADS = 4;
  static final int PER_THREAD = 300;
  static final int LAMBDAS = 200;
  static final int OBJECTS = 70;
  static final int SLEEPS = 5;
  static final int SLEEP_MS = 20;
  static final int ROTATIONS = 100;
  static final int PARITY = 9; // isOdd(9) calls isEven(8), ... down to isEven(0): five calls of each
  static final int DEPTH = 3; // a tree of 7 pairs over 8 leaves
  static volatile int sink;

  static int leaf(int x) {
    return x + 1;
  }

  static void loop() {
    for (int i = 0; i < LOOP; i++) sink += leaf(i);
  }

  static int fib(int n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
  }

  // Mutual recursion between two methods too small to be instrumented alone (trivial=skip):
  // being on a cycle of calls keeps both instrumented.
  static boolean isEven(int n) {
    return n == 0 || isOdd(n - 1);
  }

  static boolean isOdd(int n) {
    return n != 0 && isEven(n - 1);
  }

  // Recursion through an abstract method: Pair.size calls Node.size, which is its own override.
  abstract static class Node {
    abstract int size();
  }

  static final class Leaf extends Node {
    @Override
    int size() {
      return 1;
    }
  }

  static final class Pair extends Node {
    final Node left, right;

    Pair(Node left, Node right) {
      this.left = left;
      this.right = right;
    }

    @Override
    int size() {
      return left.size() + right.size();
    }
  }

  static Node tree(int depth) {
    return depth == 0 ? new Leaf() : new Pair(tree(depth - 1), tree(depth - 1));
  }

  // The frame that throws, one that catches and rethrows, one that only passes it on, and one
  // that catches it for good and then calls on: its next call must be its own child.
  static void thrower() {
    throw new IllegalStateException("thrown on purpose");
  }

  static void rethrower() {
    try {
      thrower();
    } catch (IllegalStateException e) {
      sink++;
      throw e;
    }
  }

  static void passer() {
    rethrower();
  }

  static void afterCatch() {
    sink++;
  }

  static void catcher() {
    try {
      passer();
    } catch (IllegalStateException e) {
      afterCatch();
    }
  }

  static void exceptions() {
    for (int i = 0; i < THROWS; i++) catcher();
  }

  // A frame that catches without probes of its own (exclude=Counted$Quiet in one test):
  // thrower's frame is then popped by its catch-all probe alone, and shielded's next call is
  // its own child.
  static final class Quiet {
    static void swallow() {
      try {
        thrower();
      } catch (IllegalStateException e) {
        sink++;
      }
    }
  }

  static void shielded() {
    for (int i = 0; i < THROWS; i++) {
      Quiet.swallow();
      afterCatch();
    }
  }

  // Twelve callees in turn from one node: more than the five children a node keeps at hand
  // (Nodes.java) and than its table of children holds before it grows (ThreadTree), so the first
  // loop finds every child in the table and the second moves two of them back to the front.
  static int d0(int x) { return leaf(x); }
  static int d1(int x) { return leaf(x); }
  static int d2(int x) { return leaf(x); }
  static int d3(int x) { return leaf(x); }
  static int d4(int x) { return leaf(x); }
  static int d5(int x) { return leaf(x); }
  static int d6(int x) { return leaf(x); }
  static int d7(int x) { return leaf(x); }
  static int d8(int x) { return leaf(x); }
  static int d9(int x) { return leaf(x); }
  static int d10(int x) { return leaf(x); }
  static int d11(int x) { return leaf(x); }

  static void dispatch() {
    for (int i = 0; i < ROTATIONS; i++) {
      sink += d0(i) + d1(i) + d2(i) + d3(i) + d4(i) + d5(i) + d6(i) + d7(i);
      sink += d8(i) + d9(i) + d10(i) + d11(i);
    }
    for (int i = 0; i < ROTATIONS; i++) sink += d11(i) + d0(i);
  }

  static void worker() {
    for (int i = 0; i < PER_THREAD; i++) sink += leaf(i);
  }

  static void threads() throws InterruptedException {
    Thread[] all = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      all[t] = new Thread(() -> worker(), "counted-" + t);
      all[t].start();
    }
    for (Thread t : all) t.join();
  }

  // Threads the probes find their trees for in other ways than by their id's slot, or whose id
  // they must read without calling getId() (bottlenecks.runtime.CurrentTree): BRIEF threads that
  // end one after the other, each leaving a slot behind, one that overrides getId(), and one
  // whose id is beyond the slots (ids count up from the JVM's start:
  // threads made and never started take ids too).
  static final int BRIEF = 20;
  static final int SLOTS = 4096; // CurrentTree.SLOTS

  static final class Brief extends Thread {
    @Override
    public void run() {
      worker();
    }
  }

  // Its getId() calls instrumented code: the probes must not call it (they would recurse).
  static final class Liar extends Thread {
    @Override
    public long getId() {
      return leaf(6);
    }

    @Override
    public void run() {
      worker();
    }
  }

  static final class Far extends Thread {
    @Override
    public void run() {
      worker();
    }
  }

  static void threadIds() throws InterruptedException {
    for (int t = 0; t < BRIEF; t++) {
      Thread brief = new Brief();
      brief.start();
      brief.join();
    }
    Thread liar = new Liar();
    liar.start();
    liar.join();
    while (new Thread().getId() < SLOTS) {}
    Thread far = new Far();
    if (far.getId() < SLOTS) throw new AssertionError("thread id " + far.getId());
    far.start();
    far.join();
  }

  static void lambdas() {
    IntUnaryOperator f = x -> leaf(x) * 2;
    for (int i = 0; i < LAMBDAS; i++) sink += f.applyAsInt(i);
  }

  static final class Holder {
    static final int VALUE = compute();

    static int compute() {
      return leaf(41);
    }
  }

  static class Base {
    final int x;

    Base(int x) {
      this.x = x;
    }
  }

  static final class Derived extends Base {
    Derived(int x) {
      super(argument(x)); // argument() runs before super(): the constructor's own call
    }

    static int argument(int x) {
      if (x < 0) throw new IllegalArgumentException("negative");
      return x;
    }
  }

  static class Strict {
    Strict(int x) {
      if (x < 0) throw new IllegalArgumentException("negative");
    }
  }

  // The exception leaves Lenient's constructor from its super() call, which no handler of
  // Lenient.<init> may cover: the frame that catches it must put the tree back on itself.
  static final class Lenient extends Strict {
    Lenient(int x) {
      super(x);
    }
  }

  static void objects() {
    for (int i = 0; i < OBJECTS; i++) sink += new Derived(i).x;
    for (int i = 0; i < OBJECTS; i++) {
      try {
        new Derived(-1);
      } catch (IllegalArgumentException e) {
        afterCatch(); // a child of objects, not of Derived.<init>
      }
    }
    for (int i = 0; i < OBJECTS; i++) {
      try {
        new Lenient(-1);
      } catch (IllegalArgumentException e) {
        afterCatch(); // a child of objects, not of Lenient.<init>
      }
    }
  }

  // compareTo(Object), the bridge javac generates, calls compareTo(Box).
  static final class Box implements Comparable<Box> {
    final int v;

    Box(int v) {
      this.v = v;
    }

    @Override
    public int compareTo(Box o) {
      return Integer.compare(v, o.v);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static void bridges() {
    Comparable c = new Box(1);
    for (int i = 0; i < OBJECTS; i++) sink += c.compareTo(new Box(i));
  }

  static void sleeper() throws InterruptedException {
    Thread.sleep(SLEEP_MS);
  }

  public static void main(String[] args) throws Exception {
    long body = System.nanoTime();
    loop();
    sink += fib(FIB);
    sink += isOdd(PARITY) ? 1 : 0;
    sink += tree(DEPTH).size();
    exceptions();
    shielded();
    dispatch();
    threads();
    threadIds();
    lambdas();
    sink += Holder.VALUE;
    objects();
    bridges();
    long start = System.nanoTime();
    for (int i = 0; i < SLEEPS; i++) sleeper();
    long end = System.nanoTime();
    System.out.println((end - start) + " " + (end - body));
  }
}
