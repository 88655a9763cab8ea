package bottlenecks.transform;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The probes of one method, written straight to the class writer (the calls are listed in
 * {@code bottlenecks.runtime.Probe}): the frame's node into a local of its own as the first
 * instructions, {@code Probe.exit(node)} before every return, {@code Probe.caught(node)} at the
 * start of each of the method's own exception handlers, and a catch-all handler that calls
 * {@code Probe.exit(node)} and rethrows, so a frame left by an exception is popped exactly once:
 * by its own handler (a frame that catches the exception itself is not left, and one that
 * rethrows is popped by its handler when the exception leaves it).
 *
 * <p>The catch-all handler covers the body but not the exit probes (nor the returns after them):
 * it is needed only for exceptions that leave the body, and every call it covers gives the JIT an
 * exception edge to compile (docs/performance.md, "Call-tree mode"). A getter's body has no call
 * left under it, so its handler is never compiled.
 *
 * <p>MethodProbe, ConstructorProbe and HandlerStarts find where the probes go; this class writes
 * them.
 */
final class ProbeCode {
  private static final String PROBE = "bottlenecks/runtime/Probe";
  private static final String FRAME_DESC = "(I)V";
  private static final Object[] THROWABLE = {"java/lang/Throwable"};

  private final MethodVisitor out;
  private final int id;
  private final int handlerFrames;
  private int node; // the local holding this frame's node
  private final Label start = new Label(); // right after the entry probe
  private final Set<Label> handlers = new HashSet<>(); // the method's own exception handlers
  private boolean atHandler; // a handler's label was visited, its frame not yet
  // The code the catch-all handler covers: pairs {from, to}, the body between exit probes.
  private final List<Label> covered = new ArrayList<>();
  private Label coveredFrom; // where the stretch being written began; null outside the body

  /**
   * {@code handlerFrames}: the form of the frames this writes, that of the method's other frames
   * for the class writer (F_NEW expanded, or F_FULL among compressed ones).
   */
  ProbeCode(MethodVisitor out, int id, int handlerFrames) {
    this.out = out;
    this.id = id;
    this.handlerFrames = handlerFrames;
  }

  /**
   * The entry probe, into local {@code nodeLocal}; the body starts after it, covered by the
   * catch-all handler from there if {@code coverFromHere} (a constructor's is from its super()
   * call: {@link #coverFrom}).
   */
  void enter(int nodeLocal, boolean coverFromHere) {
    node = nodeLocal;
    if (id <= Short.MAX_VALUE) {
      out.visitIntInsn(Opcodes.SIPUSH, id); // no constant-pool entry
    } else {
      out.visitLdcInsn(id);
    }
    out.visitMethodInsn(Opcodes.INVOKESTATIC, PROBE, "enter", "(I)I", false);
    out.visitVarInsn(Opcodes.ISTORE, node);
    out.visitLabel(start);
    if (coverFromHere) coveredFrom = start;
  }

  /** The catch-all handler covers the code from here (a constructor's, after its super() call). */
  void coverFrom(Label label) {
    coveredFrom = label;
  }

  static boolean isReturn(int opcode) {
    return opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN;
  }

  /** A return instruction comes next: the exit probe, outside the covered code. */
  void beforeReturn() {
    Label probe = new Label();
    out.visitLabel(probe);
    endCovered(probe);
    exitProbe("exit");
  }

  /** The return instruction was written: covered code resumes after it. */
  void afterReturn() {
    coveredFrom = new Label();
    out.visitLabel(coveredFrom);
  }

  // HandlerStarts calls these three.
  void tryCatchBlock(Label handler) {
    handlers.add(handler);
  }

  void label(Label label) {
    if (handlers.contains(label)) atHandler = true;
  }

  void frameVisited() {
    if (atHandler) {
      atHandler = false;
      exitProbe("caught");
    }
  }

  private void exitProbe(String name) {
    out.visitVarInsn(Opcodes.ILOAD, node);
    out.visitMethodInsn(Opcodes.INVOKESTATIC, PROBE, name, FRAME_DESC, false);
  }

  // The covered stretch ends at `to` (a label the writer has just placed, so its offset is
  // known); an empty one (a return right after the entry probe or after another return) is left
  // out: the JVM refuses an empty exception-table range.
  private void endCovered(Label to) {
    if (coveredFrom != null && coveredFrom.getOffset() < to.getOffset()) {
      covered.add(coveredFrom);
      covered.add(to);
    }
    coveredFrom = null;
  }

  /** The method's code has ended: the end of the covered code, and its catch-all handler. */
  void endCode() {
    Label end = new Label();
    out.visitLabel(end);
    endCovered(end);
    if (covered.isEmpty()) return;
    Label h = new Label();
    out.visitLabel(h);
    exitAndRethrow(handlerLocals());
    for (int i = 0; i < covered.size(); i += 2) out.visitTryCatchBlock(covered.get(i), covered.get(i + 1), h, null);
  }

  /**
   * A constructor's handler for the code from the entry probe up to {@code beforeSuper}, the
   * super() or this() call, where {@code this} is still uninitialised in the handler's frame.
   */
  void uninitialisedHandler(Label beforeSuper) {
    Label h = new Label();
    out.visitTryCatchBlock(start, beforeSuper, h, null);
    out.visitLabel(h);
    Object[] locals = handlerLocals();
    locals[0] = Opcodes.UNINITIALIZED_THIS;
    exitAndRethrow(locals);
  }

  // The parameters' slots as top (one entry per slot), then the probes' local.
  private Object[] handlerLocals() {
    Object[] locals = new Object[node + 1];
    for (int i = 0; i < node; i++) locals[i] = Opcodes.TOP;
    locals[node] = Opcodes.INTEGER;
    return locals;
  }

  private void exitAndRethrow(Object[] locals) {
    out.visitFrame(handlerFrames, locals.length, locals, 1, THROWABLE);
    exitProbe("exit");
    out.visitInsn(Opcodes.ATHROW);
  }

  /**
   * The class is written without ASM's COMPUTE_MAXS (a flow analysis of every method): the probes
   * need one more stack slot than the method (the node, above a return value or a handler's
   * exception) and two in the catch-all handler.
   */
  static int maxStack(int methodMaxStack) {
    return Math.max(methodMaxStack + 1, 2);
  }
}
