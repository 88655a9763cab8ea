import java.nio.file.Files;
import java.nio.file.Path;

// One JVM recorded three times in the call-tree mode, each recording over one phase of calls
// whose counts are known by construction (agent_calltree_again_test.cpp, which repeats these
// numbers). Phase N runs once the file goN appears in the directory args[0], and writes doneN
// there when it is over; then the program waits to be ended. main itself is never instrumented
// (it runs from before the first attach), so the polling adds no calls.
public class Phases {
  static final int FIRST = 300, SECOND = 70, THIRD = 20, WORKER_FIRST = 11, WORKER_SECOND = 13, LINGERING = 17;
  static final String[] GO = {"go1", "go2", "go3"};
  static final String[] DONE = {"done1", "done2", "done3"};
  static volatile int sink;
  static Path dir;
  static Lingering lingering;

  static int leaf(int x) {
    return x + 1;
  }

  static void work(int n) {
    for (int i = 0; i < n; i++) sink += leaf(i);
  }

  static void onlyFirst() {
    for (int i = 0; i < 3; i++) sink++; // a loop: not trivial, so instrumented under trivial=skip
  }

  static void onlySecond() {
    for (int i = 0; i < 3; i++) sink++;
  }

  static final class Worker extends Thread {
    final int calls;

    Worker(int calls) {
      super("phases-worker");
      this.calls = calls;
    }

    @Override
    public void run() {
      work(calls);
    }
  }

  // A frame that enters under the first recording and runs on into the second: its run() waits
  // for phase 2, then calls work, which the second recording counts under run's node from the
  // first (no call of run's own in the second).
  static final class Lingering extends Thread {
    Lingering() {
      super("phases-lingering");
    }

    @Override
    public void run() {
      try {
        while (!Files.exists(dir.resolve(GO[1]))) Thread.sleep(10);
      } catch (InterruptedException e) {
        return;
      }
      work(LINGERING);
    }
  }

  static void phase1() throws InterruptedException {
    work(FIRST);
    work(FIRST);
    onlyFirst();
    Worker w = new Worker(WORKER_FIRST);
    w.start();
    w.join();
    lingering = new Lingering();
    lingering.start();
  }

  static void phase2() throws InterruptedException {
    work(SECOND);
    onlySecond();
    Worker w = new Worker(WORKER_SECOND);
    w.start();
    w.join();
    lingering.join();
  }

  static void phase3() {
    work(THIRD);
  }

  public static void main(String[] args) throws Exception {
    dir = Path.of(args[0]);
    for (int phase = 0; phase < 3; phase++) {
      Path go = dir.resolve(GO[phase]);
      while (!Files.exists(go)) Thread.sleep(10);
      // The same path in every phase, [Phases.work]: main's own call.
      work(phase == 0 ? FIRST : phase == 1 ? SECOND : THIRD);
      if (phase == 0) phase1();
      else if (phase == 1) phase2();
      else phase3();
      Files.createFile(dir.resolve(DONE[phase]));
    }
    Thread.sleep(300_000);
  }
}
