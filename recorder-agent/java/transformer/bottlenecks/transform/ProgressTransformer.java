package bottlenecks.transform;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Progress points of mode=causal, with no change to the program's source: calls into the runtime
 * at each named method, of one of three kinds: {@link #COMPLETED} puts {@code
 * bottlenecks.runtime.Progress.completed(point)} before every normal return (a throughput point),
 * {@link #ARRIVED} puts {@code bottlenecks.runtime.Latency.arrived(point)} at the entry (a latency
 * point's BEGIN) and {@link #DEPARTED} puts {@code Latency.departed(point)} before every normal
 * return (its END). Nothing else in the class changes; a call adds one int to the operand stack
 * and no branch, so the class's frames stay valid and only the maximum stack grows (COMPUTE_MAXS,
 * which needs no other class).
 */
public final class ProgressTransformer {
  private ProgressTransformer() {}

  public static final int COMPLETED = 0;
  public static final int ARRIVED = 1;
  public static final int DEPARTED = 2;

  /**
   * The class with the calls of kind {@code kinds[i]} in the methods named {@code methods[i]}
   * (simple names: every overload) counting at {@code points[i]}, or null if it has none of them.
   * A method may be named several times (a latency point from a method to itself, say).
   */
  public static byte[] transform(byte[] bytes, String[] methods, int[] points, int[] kinds) {
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
                  next = kinds[i] == ARRIVED ? atEntry(next, points[i]) : beforeReturns(next, points[i], kinds[i]);
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

  private static void call(MethodVisitor out, int point, String owner, String method) {
    out.visitIntInsn(Opcodes.BIPUSH, point);
    out.visitMethodInsn(Opcodes.INVOKESTATIC, owner, method, "(I)V", false);
  }

  private static MethodVisitor atEntry(MethodVisitor next, int point) {
    return new MethodVisitor(Opcodes.ASM9, next) {
      @Override
      public void visitCode() {
        super.visitCode();
        call(mv, point, "bottlenecks/runtime/Latency", "arrived");
      }
    };
  }

  private static MethodVisitor beforeReturns(MethodVisitor next, int point, int kind) {
    return new MethodVisitor(Opcodes.ASM9, next) {
      @Override
      public void visitInsn(int opcode) {
        if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
          if (kind == COMPLETED) call(mv, point, "bottlenecks/runtime/Progress", "completed");
          else call(mv, point, "bottlenecks/runtime/Latency", "departed");
        }
        super.visitInsn(opcode);
      }
    };
  }
}
