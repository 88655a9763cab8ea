package bottlenecks.transform;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The locals of a method's current stack map frame, followed through the class file's compressed
 * frames (JVMS 4.7.4: each frame is the previous one with locals appended or chopped, or whole),
 * starting from the implicit frame of the method's descriptor. One entry per local in ASM's
 * format, a long or double one entry of two slots. The transformer reads frames compressed, as
 * they are in the class file: ClassReader.EXPAND_FRAMES expanded every frame and the class writer
 * compressed it again, which cost the transformer (and the JIT compiling it) more than the rest
 * of the frames' handling (docs/performance.md, "Call-tree mode").
 */
final class FrameLocals {
  private Object[] entries = new Object[16];
  private int size;

  FrameLocals(String owner, int access, String name, String desc) {
    if ((access & Opcodes.ACC_STATIC) == 0) add(name.equals("<init>") ? Opcodes.UNINITIALIZED_THIS : owner);
    for (Type t : Type.getArgumentTypes(desc)) add(entry(t));
  }

  private static Object entry(Type t) {
    switch (t.getSort()) {
      case Type.FLOAT:
        return Opcodes.FLOAT;
      case Type.LONG:
        return Opcodes.LONG;
      case Type.DOUBLE:
        return Opcodes.DOUBLE;
      case Type.ARRAY:
      case Type.OBJECT:
        return t.getInternalName(); // an array's is its descriptor, as frames want
      default:
        return Opcodes.INTEGER; // boolean, byte, char, short, int
    }
  }

  private void add(Object entry) {
    if (size == entries.length) {
      Object[] bigger = new Object[size * 2];
      System.arraycopy(entries, 0, bigger, 0, size);
      entries = bigger;
    }
    entries[size++] = entry;
  }

  /** The frame the class file gives next, in ASM's compressed form. */
  void apply(int type, int numLocal, Object[] local) {
    switch (type) {
      case Opcodes.F_FULL:
      case Opcodes.F_NEW:
        size = 0;
        for (int i = 0; i < numLocal; i++) add(local[i]);
        break;
      case Opcodes.F_APPEND:
        for (int i = 0; i < numLocal; i++) add(local[i]);
        break;
      case Opcodes.F_CHOP:
        size -= numLocal;
        break;
      default: // F_SAME, F_SAME1: the same locals
    }
  }

  int size() {
    return size;
  }

  Object get(int i) {
    return entries[i];
  }

  /** A copy of the entries. */
  Object[] toArray() {
    Object[] out = new Object[size];
    System.arraycopy(entries, 0, out, 0, size);
    return out;
  }

  static boolean isWide(Object entry) {
    return entry == Opcodes.LONG || entry == Opcodes.DOUBLE;
  }
}
