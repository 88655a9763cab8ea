package bottlenecks.transform;

import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.TypePath;

/**
 * Puts the probes (ProbeCode) into a method that is not a constructor: the probes' two locals
 * take the two slots after the parameters, and every local of the method's own above them moves
 * up by two, in its instructions, its stack map frames (expanded: ClassReader.EXPAND_FRAMES) and
 * its debug tables. That shift is all the renumbering a method needs, and it is a visitor of one
 * layer: ASM's AdviceAdapter and LocalVariablesSorter (ConstructorProbe) did the same through
 * three, and with everything instrumented the JIT's compilation of them was the largest single
 * cost of the transformer (docs/performance.md, "Call-tree mode").
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
  private final int firstLocal; // the first slot after the parameters: the tree's; the node's next

  MethodProbe(MethodVisitor next, int access, String desc, int id) {
    super(Opcodes.ASM9, next);
    probes = new ProbeCode(next, id);
    firstLocal = (Type.getArgumentsAndReturnSizes(desc) >> 2) - ((access & Opcodes.ACC_STATIC) != 0 ? 1 : 0);
  }

  private int shifted(int local, int size) {
    if (local >= firstLocal) return local + 2;
    if (local + size > firstLocal) throw new Straddling();
    return local;
  }

  @Override
  public void visitCode() {
    super.visitCode();
    probes.enter(firstLocal, firstLocal + 1, true);
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

  @Override
  public void visitTryCatchBlock(Label from, Label to, Label handler, String type) {
    super.visitTryCatchBlock(from, to, handler, type);
    probes.tryCatchBlock(handler);
  }

  @Override
  public void visitLabel(Label label) {
    super.visitLabel(label);
    probes.label(label);
  }

  // An expanded frame (F_NEW) lists one entry per local, a long or double taking two slots:
  // the probes' two go in at slot firstLocal, after top for any parameter slot the frame leaves
  // out.
  @Override
  public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
    if (type != Opcodes.F_NEW) throw new IllegalStateException("frames must be expanded");
    int kept = 0; // entries below firstLocal
    int slots = 0;
    while (kept < numLocal && slots < firstLocal) {
      slots += local[kept] == Opcodes.LONG || local[kept] == Opcodes.DOUBLE ? 2 : 1;
      kept++;
    }
    if (slots > firstLocal) throw new Straddling();
    int padding = firstLocal - slots;
    Object[] locals = new Object[numLocal + padding + 2];
    System.arraycopy(local, 0, locals, 0, kept);
    for (int i = 0; i < padding; i++) locals[kept + i] = Opcodes.TOP;
    locals[kept + padding] = ProbeCode.TREE;
    locals[kept + padding + 1] = Opcodes.INTEGER;
    System.arraycopy(local, kept, locals, kept + padding + 2, numLocal - kept);
    super.visitFrame(type, locals.length, locals, numStack, stack);
    probes.frameVisited();
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    probes.endCode();
    super.visitMaxs(ProbeCode.maxStack(maxStack), maxLocals + 2);
  }
}
