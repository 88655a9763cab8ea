package bottlenecks.transform;

import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Finds a class's trivial methods (trivial=skip): bodies of at most {@link #MAX_INSTRUCTIONS}
 * instructions that call nothing, never jump backwards (no loop) and take no monitor. Such a
 * method's time is its caller's under trivial=skip: probes would cost more than the body (a
 * getter is three instructions), and it cannot hide a bottleneck of its own.
 */
final class TrivialScan extends ClassVisitor {
  static final int MAX_INSTRUCTIONS = 16;

  /** name + descriptor of each trivial method. */
  final Set<String> trivial = new HashSet<>();

  TrivialScan() {
    super(Opcodes.ASM9);
  }

  static Set<String> of(ClassReader reader) {
    TrivialScan scan = new TrivialScan();
    reader.accept(scan, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return scan.trivial;
  }

  @Override
  public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
    if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_SYNCHRONIZED)) != 0) return null;
    final String key = name + desc;
    return new MethodVisitor(Opcodes.ASM9) {
      final Set<Label> seen = new HashSet<>();
      int instructions;
      boolean disqualified;

      @Override
      public void visitLabel(Label label) {
        seen.add(label);
      }

      private void count() {
        if (++instructions > MAX_INSTRUCTIONS) disqualified = true;
      }

      @Override
      public void visitInsn(int opcode) {
        count();
        if (opcode == Opcodes.MONITORENTER) disqualified = true;
      }

      @Override
      public void visitIntInsn(int opcode, int operand) {
        count();
      }

      @Override
      public void visitVarInsn(int opcode, int var) {
        count();
      }

      @Override
      public void visitTypeInsn(int opcode, String type) {
        count();
      }

      @Override
      public void visitFieldInsn(int opcode, String owner, String fieldName, String fieldDesc) {
        count();
      }

      @Override
      public void visitMethodInsn(int opcode, String owner, String mName, String mDesc, boolean itf) {
        disqualified = true;
      }

      @Override
      public void visitInvokeDynamicInsn(String iName, String iDesc, Handle bsm, Object... args) {
        disqualified = true;
      }

      @Override
      public void visitJumpInsn(int opcode, Label label) {
        count();
        if (seen.contains(label)) disqualified = true;
      }

      @Override
      public void visitLdcInsn(Object value) {
        count();
      }

      @Override
      public void visitIincInsn(int var, int increment) {
        count();
      }

      @Override
      public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
        count();
        jumps(dflt, labels);
      }

      @Override
      public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
        count();
        jumps(dflt, labels);
      }

      private void jumps(Label dflt, Label[] labels) {
        if (seen.contains(dflt)) disqualified = true;
        for (Label l : labels) if (seen.contains(l)) disqualified = true;
      }

      @Override
      public void visitMultiANewArrayInsn(String mDesc, int dims) {
        count();
      }

      @Override
      public void visitEnd() {
        if (!disqualified) trivial.add(key);
      }
    };
  }
}
