package bottlenecks.transform;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * Puts the probes into one method: {@code Probe.enter(id)} as its first instruction,
 * {@code Probe.exit()} before every return, and a catch-all handler around the whole body that
 * calls {@code Probe.exit()} and rethrows, so a frame left by an exception is popped exactly
 * once: by its own handler (a frame that catches the exception itself is not left, and one that
 * rethrows is popped by its handler when the exception leaves it).
 *
 * <p>Constructors: enter comes before the super() or this() call too, so the code computing
 * its arguments is the constructor's. No handler can cover that call itself: the verifier checks
 * a handler over it against the frame before the call ({@code this} uninitialised) and the one
 * after it (initialised) with the "uninitialised" flag kept (JVMS 4.10.1.9; HotSpot's
 * verify_invoke_init), and no frame accepts both. So a constructor gets two handlers: one up
 * to the call, whose frame keeps {@code uninitializedThis} (it may only throw, which it does),
 * and one after it. AdviceAdapter finds the call; an exception thrown by the super constructor
 * itself is the one exit that is not seen (docs/recorder.md).
 *
 * <p>No local variable is added and every frame this class writes lists only what it needs
 * (the rest is top), so the method's own stack map frames stay valid unchanged.
 */
final class MethodProbe extends AdviceAdapter {
  private static final String PROBE = "bottlenecks/runtime/Probe";
  private static final Object[] THROWABLE = {"java/lang/Throwable"};

  private final int id;
  private final boolean constructor;
  private final Label start = new Label();
  private Label beforeSuper; // constructors: just before the super() or this() call
  private Label afterSuper; // and just after it

  MethodProbe(MethodVisitor next, int access, String name, String desc, int id) {
    super(Opcodes.ASM9, next, access, name, desc);
    this.id = id;
    this.constructor = name.equals("<init>");
  }

  @Override
  public void visitCode() {
    super.visitCode(); // calls onMethodEnter() here unless this is a constructor
    if (constructor) enterProbe();
  }

  @Override
  protected void onMethodEnter() {
    if (!constructor) {
      enterProbe();
    } else {
      afterSuper = new Label();
      mv.visitLabel(afterSuper);
    }
  }

  @Override
  public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
    if (!constructor || afterSuper != null || opcode != Opcodes.INVOKESPECIAL || !name.equals("<init>")) {
      super.visitMethodInsn(opcode, owner, name, desc, itf);
      return;
    }
    // Maybe the super() call (AdviceAdapter tells by calling onMethodEnter), maybe the
    // constructor of an object made for its arguments.
    Label candidate = new Label();
    mv.visitLabel(candidate);
    super.visitMethodInsn(opcode, owner, name, desc, itf);
    if (afterSuper != null) beforeSuper = candidate;
  }

  // Written to the next visitor directly: AdviceAdapter's own stack tracking (before super())
  // and local renumbering must not see the probes.
  private void enterProbe() {
    mv.visitLdcInsn(id);
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, PROBE, "enter", "(I)V", false);
    mv.visitLabel(start);
  }

  @Override
  protected void onMethodExit(int opcode) {
    if (opcode != Opcodes.ATHROW) mv.visitMethodInsn(Opcodes.INVOKESTATIC, PROBE, "exit", "()V", false);
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    Label end = new Label();
    mv.visitLabel(end);
    if (constructor) {
      if (afterSuper == null) throw new IllegalStateException("no super() or this() call found");
      Label uninitialised = new Label();
      mv.visitTryCatchBlock(start, beforeSuper, uninitialised, null);
      Label initialised = handler();
      mv.visitLabel(uninitialised);
      mv.visitFrame(Opcodes.F_NEW, 1, new Object[] {Opcodes.UNINITIALIZED_THIS}, 1, THROWABLE);
      exitAndRethrow();
      mv.visitTryCatchBlock(afterSuper, end, initialised, null);
    } else {
      mv.visitTryCatchBlock(start, end, handler(), null);
    }
    super.visitMaxs(maxStack, maxLocals);
  }

  // The handler for an initialised frame, written here; returns its label.
  private Label handler() {
    Label h = new Label();
    mv.visitLabel(h);
    mv.visitFrame(Opcodes.F_NEW, 0, new Object[0], 1, THROWABLE);
    exitAndRethrow();
    return h;
  }

  private void exitAndRethrow() {
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, PROBE, "exit", "()V", false);
    mv.visitInsn(Opcodes.ATHROW);
  }
}
