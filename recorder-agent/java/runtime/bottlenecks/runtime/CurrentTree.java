package bottlenecks.runtime;

import jdk.internal.misc.Unsafe;

/**
 * The calling thread's tree, looked up at every entry and exit (Probe). A slot per thread id in
 * one array, checked against the thread itself, answers almost every lookup with three loads (the
 * thread's id, the slot, the slot's thread); a {@code ThreadLocal} holds the trees and answers
 * the rest: a thread whose id is beyond the array, or one whose slot is empty (its first call, a
 * paused thread). The array is only a cache of the thread-local: the identity check makes any
 * slot's content safe, so its writes need no ordering.
 *
 * <p>Why not the thread-local alone: with the tree in a local of every instrumented method (the
 * design before), C2 kept one more object live across every call of every instrumented method and
 * of every method it inlined one into (bench/LOG.md, "Fifth round"). A
 * lookup per event instead needs a lookup cheaper than ThreadLocal.get's seven dependent loads.
 *
 * <p>The id is Thread's private {@code tid} field, read with jdk.internal.misc.Unsafe (which the
 * agent exports to the runtime at start, java_side.cpp): {@code getId()} can be overridden, and a
 * probe must never call the program's code (an instrumented override would recurse). Thread ids
 * are never reused (JDK 17: a counter), so a slot left by an ended thread is never matched again;
 * Registry empties it when it drops the thread, so the array does not keep the tree alive.
 * Without the field (another JDK) every lookup is the thread-local's.
 */
final class CurrentTree {
  private CurrentTree() {}

  /** Slots for thread ids below this; a thread with a larger id uses the thread-local only. */
  static final int SLOTS = 4096;

  private static final ThreadTree[] BY_ID = new ThreadTree[SLOTS];
  private static final Unsafe UNSAFE = Unsafe.getUnsafe();
  private static final long TID = tidOffset();

  private static long tidOffset() {
    try {
      return UNSAFE.objectFieldOffset(Thread.class, "tid");
    } catch (InternalError e) { // no such field
      return -1;
    }
  }

  // An anonymous class, not ThreadLocal.withInitial(lambda): a lambda would bootstrap
  // java.lang.invoke at the first call, from whatever instrumented method that is.
  private static final ThreadLocal<ThreadTree> TREES =
      new ThreadLocal<ThreadTree>() {
        @Override
        protected ThreadTree initialValue() {
          return Registry.register(Thread.currentThread());
        }
      };

  static ThreadTree get() {
    Thread thread = Thread.currentThread();
    ThreadTree tree = inSlot(BY_ID, thread);
    return tree != null ? tree : fromThreadLocal(thread);
  }

  /** The thread's id as an index in an array of {@code length} slots, or -1. */
  static int slot(Thread thread, int length) {
    if (TID < 0) return -1;
    long id = UNSAFE.getLong(thread, TID);
    return id >= 0 && id < length ? (int) id : -1;
  }

  /** The tree in {@code thread}'s slot of {@code slots} if it is the thread's, else null. */
  static ThreadTree inSlot(ThreadTree[] slots, Thread thread) {
    int i = slot(thread, slots.length);
    if (i < 0) return null;
    ThreadTree tree = slots[i];
    return tree != null && tree.thread == thread ? tree : null;
  }

  // A probe event whose tree was not in its slot: the thread's first since the recording started
  // (restart), or since a pause, or any event of a thread without a slot. The first of these on a
  // registered tree (serial > 0) is the recording's first call (Registry.firstCall; nothing if a
  // call came before).
  private static ThreadTree fromThreadLocal(Thread thread) {
    ThreadTree tree = TREES.get();
    int i = slot(thread, SLOTS);
    // Probe.pause's throwaway trees (no thread) stay out of the array.
    if (tree.thread != thread || i < 0) {
      if (tree.serial != 0) Registry.firstCall();
      return tree;
    }
    // restart's lock, taken only here, on the slow path: a slot filled before a restart is emptied
    // by it (this thread comes here again), one filled after it finds its first call forgotten.
    synchronized (BY_ID) {
      BY_ID[i] = tree;
      if (tree.serial != 0) Registry.firstCall();
    }
    return tree;
  }

  /** A recording starts: every slot empties, and the recording's first call is to be found again. */
  static void restart() {
    synchronized (BY_ID) {
      Registry.forgetFirstCall();
      for (int i = 0; i < SLOTS; i++) BY_ID[i] = null;
    }
  }

  /** Until {@link #restore}, the calling thread's events go to {@code other} (Probe.pause). */
  static ThreadTree replace(ThreadTree other) {
    // The thread-local, not get(): a class being transformed is no probe event, and must not
    // count as the recording's first call.
    ThreadTree current = TREES.get();
    TREES.set(other);
    forget(current);
    return current;
  }

  /** Ends {@link #replace}: {@code tree} is what it returned. */
  static void restore(ThreadTree tree) {
    TREES.set(tree); // the slot fills again at the next lookup
  }

  /** The slot of {@code tree}'s thread no longer holds it (the thread has ended or paused). */
  static void forget(ThreadTree tree) {
    if (tree.thread == null) return; // a throwaway tree (nested pauses) is in no slot
    int i = slot(tree.thread, SLOTS);
    if (i >= 0 && BY_ID[i] == tree) BY_ID[i] = null;
  }
}
