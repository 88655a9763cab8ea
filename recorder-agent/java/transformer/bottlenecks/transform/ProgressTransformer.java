package bottlenecks.transform;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Progress points of mode=causal, with no change to the program's source: before every normal
 * return of each named method, a call of {@code bottlenecks.runtime.Progress.completed(point)}.
 * Nothing else in the class changes; the call adds one int to the operand stack and no branch,
 * so the class's frames stay valid and only the maximum stack grows (COMPUTE_MAXS, which needs
 * no other class).
 */
public final class ProgressTransformer {
  private ProgressTransformer() {}

  /**
   * The class with the calls in the methods named {@code methods[i]} (simple names: every
   * overload) counting at {@code points[i]}, or null if it has none of them.
   */
  public static byte[] transform(byte[] bytes, String[] methods, int[] points) {
    try {
      ClassReader reader = new ClassReader(bytes);
      ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
      boolean[] changed = {false};
      reader.accept(
          new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(
                int access, String name, String descriptor, String signature, String[] exceptions) {
              MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
              if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return next;
              for (int i = 0; i < methods.length; i++) {
                if (methods[i].equals(name)) {
                  changed[0] = true;
                  return counting(next, points[i]);
                }
              }
              return next;
            }
          },
          0);
      return changed[0] ? writer.toByteArray() : null;
    } catch (RuntimeException e) {
      return null; // a class ASM cannot read stays as it is; the agent reports a point that never counted
    }
  }

  private static MethodVisitor counting(MethodVisitor next, int point) {
    return new MethodVisitor(Opcodes.ASM9, next) {
      @Override
      public void visitInsn(int opcode) {
        if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
          super.visitIntInsn(Opcodes.BIPUSH, point);
          super.visitMethodInsn(
              Opcodes.INVOKESTATIC, "bottlenecks/runtime/Progress", "completed", "(I)V", false);
        }
        super.visitInsn(opcode);
      }
    };
  }
}
