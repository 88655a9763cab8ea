package bottlenecks.transform;

import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.TypePath;

/**
 * Puts the probes (ProbeCode) into a method that is not a constructor: the probes' local takes
 * the slot after the parameters, and every local of the method's own above it moves up by one,
 * in its instructions, its stack map frames and its debug tables. That shift is all the
 * renumbering a method needs, in a visitor of one layer: ASM's AdviceAdapter and
 * LocalVariablesSorter (ConstructorProbe) did the same through three, and with everything
 * instrumented the JIT's compilation of them was among the largest costs of the transformer
 * (docs/performance.md, "Call-tree mode").
 *
 * <p>A method that reuses its last parameter's slot for a long or a double (which javac never
 * does) would need that local moved apart; {@link Straddling} is thrown, and the transformer
 * redoes the class with ConstructorProbe for every method.
 */
final class MethodProbe extends MethodVisitor {
  /** A long or double local starts in the parameters' slots and ends past them. */
  static final class Straddling extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Straddling() {
      super(null, null, false, false);
    }
  }

  private final ProbeCode probes;
  private final int firstLocal; // the first slot after the parameters: the node's
  private final FrameLocals frame; // the method's own locals at the last frame
  // The last frame written is the class file's with the probes' local inserted at
  // firstLocal and nothing else changed: the next frame may then be written relative to it. Not
  // so after a frame that left out parameter slots (written with top in their place).
  private boolean probesInFrame;

  /** {@code probes} writes its frames whole (F_FULL), among the method's compressed ones. */
  MethodProbe(MethodVisitor next, ProbeCode probes, String owner, int access, String name, String desc) {
    super(Opcodes.ASM9, next);
    this.probes = probes;
    firstLocal = (Type.getArgumentsAndReturnSizes(desc) >> 2) - ((access & Opcodes.ACC_STATIC) != 0 ? 1 : 0);
    frame = new FrameLocals(owner, access, name, desc);
  }

  private int shifted(int local, int size) {
    if (local >= firstLocal) return local + 1;
    if (local + size > firstLocal) throw new Straddling();
    return local;
  }

  @Override
  public void visitCode() {
    super.visitCode();
    probes.enter(firstLocal, true);
  }

  @Override
  public void visitInsn(int opcode) {
    if (!ProbeCode.isReturn(opcode)) {
      super.visitInsn(opcode); // athrow included: the catch-all handler pops the frame
      return;
    }
    probes.beforeReturn();
    super.visitInsn(opcode);
    probes.afterReturn();
  }

  @Override
  public void visitVarInsn(int opcode, int local) {
    boolean wide = opcode == Opcodes.LLOAD || opcode == Opcodes.DLOAD || opcode == Opcodes.LSTORE || opcode == Opcodes.DSTORE;
    super.visitVarInsn(opcode, shifted(local, wide ? 2 : 1));
  }

  @Override
  public void visitIincInsn(int local, int increment) {
    super.visitIincInsn(shifted(local, 1), increment);
  }

  @Override
  public void visitLocalVariable(String name, String desc, String signature, Label start, Label end, int index) {
    super.visitLocalVariable(name, desc, signature, start, end, shifted(index, Type.getType(desc).getSize()));
  }

  @Override
  public AnnotationVisitor visitLocalVariableAnnotation(
      int typeRef, TypePath typePath, Label[] start, Label[] end, int[] index, String desc, boolean visible) {
    int[] moved = new int[index.length];
    for (int i = 0; i < index.length; i++) moved[i] = shifted(index[i], 1);
    return super.visitLocalVariableAnnotation(typeRef, typePath, start, end, moved, desc, visible);
  }

  // Frames come compressed, as in the class file (FrameLocals). One that adds to or keeps the
  // previous frame's locals stays as it is once the frame before it holds the probes' local; any
  // other (the first frame, one that drops into the parameters' slots, a whole one) is written
  // whole: its locals up to firstLocal (top for any parameter slot it leaves out), the probes'
  // local, then the rest.
  @Override
  public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
    boolean keptBefore = probesInFrame;
    frame.apply(type, numLocal, local);
    int kept = 0; // entries below firstLocal
    int slots = 0;
    while (kept < frame.size() && slots < firstLocal) slots += FrameLocals.isWide(frame.get(kept++)) ? 2 : 1;
    if (slots > firstLocal) throw new Straddling();
    probesInFrame = slots == firstLocal;
    boolean relative = type == Opcodes.F_SAME || type == Opcodes.F_SAME1 || type == Opcodes.F_APPEND || type == Opcodes.F_CHOP;
    if (relative && keptBefore && probesInFrame) {
      super.visitFrame(type, numLocal, local, numStack, stack);
    } else {
      int padding = firstLocal - slots;
      Object[] locals = new Object[frame.size() + padding + 1];
      for (int i = 0; i < kept; i++) locals[i] = frame.get(i);
      for (int i = 0; i < padding; i++) locals[kept + i] = Opcodes.TOP;
      locals[kept + padding] = Opcodes.INTEGER;
      for (int i = kept; i < frame.size(); i++) locals[i + padding + 1] = frame.get(i);
      boolean withStack = type == Opcodes.F_SAME1 || type == Opcodes.F_FULL; // the others' stack is empty
      super.visitFrame(Opcodes.F_FULL, locals.length, locals, withStack ? numStack : 0, stack);
    }
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    probes.endCode();
    super.visitMaxs(ProbeCode.maxStack(maxStack), maxLocals + 1);
  }
}
