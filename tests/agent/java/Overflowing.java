// Calls whose numbers are known by construction through more calling contexts than the small
// treememory= of agent_calltree_memory_test.cpp (which repeats these numbers) has room for: PASSES
// times a binary tree of a's and b's DEPTH calls deep, each of its leaves calling a method that
// catches what another throws, so that exceptions leave and are caught in calling contexts the
// tree holds, in the one where it filled, and in those it has no room for.
public class Overflowing {
  static final int DEPTH = 12;
  static final int PASSES = 3;

  static void a(int n) {
    if (n > 0) {
      a(n - 1);
      b(n - 1);
    } else {
      catcher();
    }
  }

  static void b(int n) {
    if (n > 0) {
      a(n - 1);
      b(n - 1);
    } else {
      catcher();
    }
  }

  static void catcher() {
    try {
      thrower();
    } catch (IllegalStateException e) {
      after();
    }
  }

  static void thrower() {
    throw new IllegalStateException("deliberate");
  }

  static void after() {}

  public static void main(String[] args) {
    for (int pass = 0; pass < PASSES; pass++) a(DEPTH);
  }
}
