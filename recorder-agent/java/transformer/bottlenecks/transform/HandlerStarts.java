package bottlenecks.transform;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Puts {@code Probe.caught} at the start of each of the method's own exception handlers, in front
 * of whichever probe visitor (MethodProbe, ConstructorProbe) rewrites the method: a handler's code
 * starts after its frame (class files of version 50 and later have one at every handler; older
 * ones are never instrumented), which that visitor has written by the time this one's
 * visitFrame returns.
 */
final class HandlerStarts extends MethodVisitor {
  private final ProbeCode probes;

  HandlerStarts(MethodVisitor next, ProbeCode probes) {
    super(Opcodes.ASM9, next);
    this.probes = probes;
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

  @Override
  public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
    super.visitFrame(type, numLocal, local, numStack, stack);
    probes.frameVisited();
  }
}
