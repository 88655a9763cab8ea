package bottlenecks.transform;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;

/**
 * Puts the probes (ProbeCode) into a constructor, or into a method whose locals MethodProbe
 * cannot shift. Built on ASM's AdviceAdapter, which finds a constructor's super() or this()
 * call by following the operand stack, and LocalVariablesSorter (its base), which renumbers the
 * method's own locals past the probes' local whatever their types and adds it to every stack
 * map frame. Both cost more than MethodProbe's shift, in the transformer and in the JIT compiling
 * it, so the other methods go to MethodProbe.
 *
 * <p>Enter comes before the super() or this() call too, so the code computing its arguments is
 * the constructor's. No handler can cover that call itself: the verifier checks a handler over it
 * against the frame before the call ({@code this} uninitialised) and the one after it
 * (initialised) with the "uninitialised" flag kept (JVMS 4.10.1.9; HotSpot's verify_invoke_init),
 * and no frame accepts both. So a constructor gets two handlers: one up to the call, whose frame
 * keeps {@code uninitializedThis} (it may only throw, which it does), and one after it. An
 * exception thrown by the super constructor itself is the one exit no probe sees; the handler
 * that catches it, in an instrumented caller, puts the tree back on its own frame with {@code
 * caught} (docs/recorder.md).
 */
final class ConstructorProbe extends AdviceAdapter {
  private final ProbeCode probes;
  private final boolean constructor;
  private Label beforeSuper; // constructors: just before the super() or this() call
  private Label afterSuper; // and just after it
  private boolean returning; // an exit probe was written, its return instruction not yet

  /** {@code probes} writes its frames expanded (F_NEW), as LocalVariablesSorter writes the method's. */
  ConstructorProbe(MethodVisitor next, ProbeCode probes, int access, String name, String desc) {
    super(Opcodes.ASM9, next, access, name, desc);
    this.probes = probes;
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
      probes.coverFrom(afterSuper);
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
    probes.enter(newLocal(Type.INT_TYPE), !constructor);
  }

  @Override
  protected void onMethodExit(int opcode) {
    if (opcode == Opcodes.ATHROW) return; // the catch-all handler pops the frame
    probes.beforeReturn();
    returning = true;
  }

  // AdviceAdapter calls onMethodExit before it writes the return instruction.
  @Override
  public void visitInsn(int opcode) {
    super.visitInsn(opcode);
    if (returning) {
      returning = false;
      probes.afterReturn();
    }
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    probes.endCode();
    if (constructor) {
      if (afterSuper == null) throw new IllegalStateException("no super() or this() call found");
      probes.uninitialisedHandler(beforeSuper);
    }
    super.visitMaxs(ProbeCode.maxStack(maxStack), maxLocals); // the locals: LocalVariablesSorter's count
  }
}
