package bottlenecks.transform;

import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * Puts the probes into one method (the calls are listed in {@code bottlenecks.runtime.Probe}):
 * the thread's tree and the frame's node into two new locals as its first instructions,
 * {@code Probe.exit(tree, node)} before every return, {@code Probe.caught(tree, node)} at the
 * start of each of the method's own exception handlers, and a catch-all handler around the
 * whole body that calls {@code Probe.exit(tree, node)} and rethrows, so a frame left by an
 * exception is popped exactly once: by its own handler (a frame that catches the exception
 * itself is not left, and one that rethrows is popped by its handler when the exception leaves
 * it).
 *
 * <p>Constructors: enter comes before the super() or this() call too, so the code computing
 * its arguments is the constructor's. No handler can cover that call itself: the verifier checks
 * a handler over it against the frame before the call ({@code this} uninitialised) and the one
 * after it (initialised) with the "uninitialised" flag kept (JVMS 4.10.1.9; HotSpot's
 * verify_invoke_init), and no frame accepts both. So a constructor gets two handlers: one up
 * to the call, whose frame keeps {@code uninitializedThis} (it may only throw, which it does),
 * and one after it. AdviceAdapter finds the call. An exception thrown by the super constructor
 * itself is the one exit no probe sees; the handler that catches it, in an instrumented caller,
 * puts the tree back on its own frame with {@code caught} (docs/recorder.md).
 *
 * <p>The two locals come from LocalVariablesSorter (AdviceAdapter's base), which renumbers the
 * method's own locals past them and adds them to every stack map frame of the method; the
 * handler frames this class writes list them and the parameters' slots as top.
 */
final class MethodProbe extends AdviceAdapter {
  private static final String PROBE = "bottlenecks/runtime/Probe";
  private static final String TREE = "bottlenecks/runtime/ThreadTree";
  private static final String FRAME_DESC = "(L" + TREE + ";I)V";
  private static final Object[] THROWABLE = {"java/lang/Throwable"};

  private final int id;
  private final boolean constructor;
  private final Label start = new Label();
  private Label beforeSuper; // constructors: just before the super() or this() call
  private Label afterSuper; // and just after it
  private int tree; // the locals: the thread's tree
  private int node; // and this frame's node in it
  private final Set<Label> handlers = new HashSet<>(); // the method's own exception handlers
  private boolean atHandler; // a handler's label was visited, its frame not yet

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
  // and local renumbering must not see the probes (newLocal's numbers are already final).
  private void enterProbe() {
    tree = newLocal(Type.getObjectType(TREE));
    node = newLocal(Type.INT_TYPE);
    mv.visitLdcInsn(id);
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, PROBE, "enter", "(I)L" + TREE + ";", false);
    mv.visitInsn(Opcodes.DUP);
    mv.visitVarInsn(Opcodes.ASTORE, tree);
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, PROBE, "node", "(L" + TREE + ";)I", false);
    mv.visitVarInsn(Opcodes.ISTORE, node);
    mv.visitLabel(start);
  }

  private void frameProbe(String name) {
    mv.visitVarInsn(Opcodes.ALOAD, tree);
    mv.visitVarInsn(Opcodes.ILOAD, node);
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, PROBE, name, FRAME_DESC, false);
  }

  @Override
  protected void onMethodExit(int opcode) {
    if (opcode != Opcodes.ATHROW) frameProbe("exit");
  }

  @Override
  public void visitTryCatchBlock(Label from, Label to, Label handler, String type) {
    super.visitTryCatchBlock(from, to, handler, type);
    handlers.add(handler);
  }

  @Override
  public void visitLabel(Label label) {
    super.visitLabel(label);
    if (handlers.contains(label)) atHandler = true;
  }

  // A handler's code starts after its frame (class files of version 50 and later have one at
  // every handler; older ones are never instrumented).
  @Override
  public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
    super.visitFrame(type, numLocal, local, numStack, stack);
    if (atHandler) {
      atHandler = false;
      frameProbe("caught");
    }
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
      Object[] locals = handlerLocals();
      locals[0] = Opcodes.UNINITIALIZED_THIS;
      mv.visitFrame(Opcodes.F_NEW, locals.length, locals, 1, THROWABLE);
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
    Object[] locals = handlerLocals();
    mv.visitFrame(Opcodes.F_NEW, locals.length, locals, 1, THROWABLE);
    exitAndRethrow();
    return h;
  }

  // The parameters' slots as top (one entry per slot), then the probes' two locals.
  private Object[] handlerLocals() {
    Object[] locals = new Object[node + 1];
    for (int i = 0; i < tree; i++) locals[i] = Opcodes.TOP;
    locals[tree] = TREE;
    locals[node] = Opcodes.INTEGER;
    return locals;
  }

  private void exitAndRethrow() {
    frameProbe("exit");
    mv.visitInsn(Opcodes.ATHROW);
  }
}
