package bottlenecks.transform;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Finds a class's trivial methods (docs/recorder.md "Trivial methods"): bodies of at most {@link
 * #MAX_INSTRUCTIONS} instructions that never jump backwards (no loop) and take no monitor, and
 * that call nothing (trivial=skip: getters, setters, small arithmetic) or, with trivial=wrappers,
 * catch nothing and call only methods of their own package (a visitor's accept, a bridge, a
 * wrapper of a sibling method). Each instruction of such a method runs at most once per call, so
 * its own time is a few instructions' worth; probes would cost more than that. Its time is its
 * caller's; under trivial=wrappers what it calls is recorded under its caller, as if the JIT had
 * inlined it, so the tree no longer shows the wrappers' frames: an option, not the default.
 *
 * <p>A wrapper's calls are restricted so that it can hide no work of its own: the package's
 * methods are the program's, instrumented or trivial themselves (a call into the JDK,
 * uninstrumented by default, could do any amount of work, which then belongs to the method that
 * made it). Recursion could hide unbounded work among trivial methods, so a method that calls a
 * method of its own name and descriptor (on any class: an override's recursion goes through its
 * superclass; a constructor's super() call excepted) is not trivial, nor is one on a cycle of
 * calls among its class's methods. A method that catches nothing is never the one an exception
 * stops in, which the probes' exactness needs (Probe.caught).
 */
final class TrivialScan extends ClassVisitor {
  static final int MAX_INSTRUCTIONS = 16;

  /** name + descriptor of each trivial method. */
  final Set<String> trivial = new HashSet<>();

  private String owner; // pkg/Class
  private String pkg; // pkg/, or "" in the unnamed package
  // Each candidate's calls of methods of this class (name + descriptor), for the cycles.
  private final Map<String, Set<String>> ownCalls = new HashMap<>();

  private final boolean wrappers; // trivial=wrappers: calls of the package's methods allowed

  TrivialScan(boolean wrappers) {
    super(Opcodes.ASM9);
    this.wrappers = wrappers;
  }

  static Set<String> of(ClassReader reader, boolean wrappers) {
    TrivialScan scan = new TrivialScan(wrappers);
    reader.accept(scan, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return scan.trivial;
  }

  @Override
  public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
    owner = name;
    pkg = name.substring(0, name.lastIndexOf('/') + 1);
  }

  private boolean inPackage(String className) {
    return className.startsWith(pkg) && className.indexOf('/', pkg.length()) < 0;
  }

  @Override
  public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
    if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_SYNCHRONIZED)) != 0) return null;
    final String key = name + desc;
    return new MethodVisitor(Opcodes.ASM9) {
      final Set<Label> seen = new HashSet<>();
      final Set<String> calls = new HashSet<>();
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
      public void visitFieldInsn(int opcode, String fieldOwner, String fieldName, String fieldDesc) {
        count();
      }

      @Override
      public void visitMethodInsn(int opcode, String mOwner, String mName, String mDesc, boolean itf) {
        count();
        if (!wrappers) disqualified = true;
        // Object's constructor does nothing: the super() call of a class that extends Object.
        if (mOwner.equals("java/lang/Object") && mName.equals("<init>")) return;
        if (!inPackage(mOwner)) disqualified = true;
        // A constructor's super() call may have its descriptor; it is not recursion.
        if (key.equals(mName + mDesc) && !mName.equals("<init>")) disqualified = true;
        if (mOwner.equals(owner)) calls.add(mName + mDesc);
      }

      @Override
      public void visitInvokeDynamicInsn(String iName, String iDesc, Handle bsm, Object... args) {
        disqualified = true; // the JDK's bootstraps and the method handles they link
      }

      @Override
      public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
        // A method that calls nothing throws only its own exceptions: where it catches them
        // no probe is involved.
        if (wrappers) disqualified = true;
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
        if (disqualified) return;
        trivial.add(key);
        ownCalls.put(key, calls);
      }
    };
  }

  @Override
  public void visitEnd() {
    Set<String> onCycles = new HashSet<>();
    for (String method : trivial) if (reaches(method, method, new HashSet<>())) onCycles.add(method);
    trivial.removeAll(onCycles);
  }

  // Whether a chain of calls among the candidates leads from `from` to `target`.
  private boolean reaches(String from, String target, Set<String> visited) {
    for (String callee : ownCalls.get(from)) {
      if (callee.equals(target)) return true;
      if (trivial.contains(callee) && visited.add(callee) && reaches(callee, target, visited)) return true;
    }
    return false;
  }
}
