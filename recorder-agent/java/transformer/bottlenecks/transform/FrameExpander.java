package bottlenecks.transform;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Hands ConstructorProbe every frame expanded (F_NEW), as ASM's LocalVariablesSorter requires:
 * the class is read with its frames compressed (FrameLocals says why), and only the methods that
 * go to ConstructorProbe pay for expanding them.
 */
final class FrameExpander extends MethodVisitor {
  private final FrameLocals locals;

  FrameExpander(MethodVisitor next, String owner, int access, String name, String desc) {
    super(Opcodes.ASM9, next);
    locals = new FrameLocals(owner, access, name, desc);
  }

  @Override
  public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
    locals.apply(type, numLocal, local);
    Object[] all = locals.toArray();
    super.visitFrame(Opcodes.F_NEW, all.length, all, numStack, stack); // compressed frames give their whole stack
  }
}
