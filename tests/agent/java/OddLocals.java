import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;

// Methods whose locals javac never lays out so (other compilers and optimisers may), written here
// byte by byte, one class each:
//
//   Reuse.f(int a, int b): long   lconst_1; lstore_1; lload_1; lreturn
//     the long lives in slots 1 and 2, across the last parameter's: the transformer's MethodProbe
//     cannot shift it and redoes the class with ConstructorProbe.
//   Chop.g(int a, int b): int     a != 0 ? 1 : (b' = a) != 0 ? b' : 2, where a frame has dropped
//     parameter b (chop) and a later one appends b', an int of its own in b's slot: MethodProbe
//     writes both frames whole, top in place of b the first time.
//
// main calls each CALLS times and prints the sums of their results (CALLS and 2 * CALLS).
public class OddLocals {
  static final int CALLS = 10;

  static byte[] oneMethodClass(String name, String method, String desc, int maxLocals, byte[] code, byte[] frames)
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(0xCAFEBABE);
    out.writeShort(0);
    out.writeShort(52); // Java 8: stack map frames
    out.writeShort(9); // constant pool: 8 entries
    out.writeByte(1);
    out.writeUTF(name); // #1
    out.writeByte(7);
    out.writeShort(1); // #2 this class
    out.writeByte(1);
    out.writeUTF("java/lang/Object"); // #3
    out.writeByte(7);
    out.writeShort(3); // #4 its superclass
    out.writeByte(1);
    out.writeUTF(method); // #5
    out.writeByte(1);
    out.writeUTF(desc); // #6
    out.writeByte(1);
    out.writeUTF("Code"); // #7
    out.writeByte(1);
    out.writeUTF("StackMapTable"); // #8
    out.writeShort(0x0021); // public super
    out.writeShort(2);
    out.writeShort(4);
    out.writeShort(0); // interfaces
    out.writeShort(0); // fields
    out.writeShort(1); // methods
    out.writeShort(0x0009); // public static
    out.writeShort(5);
    out.writeShort(6);
    out.writeShort(1); // attributes: Code
    out.writeShort(7);
    int framesLength = frames == null ? 0 : 6 + frames.length;
    out.writeInt(12 + code.length + framesLength);
    out.writeShort(2); // max stack
    out.writeShort(maxLocals);
    out.writeInt(code.length);
    out.write(code);
    out.writeShort(0); // exception table
    out.writeShort(frames == null ? 0 : 1);
    if (frames != null) {
      out.writeShort(8);
      out.writeInt(frames.length);
      out.write(frames);
    }
    out.writeShort(0); // class attributes
    return bytes.toByteArray();
  }

  static final class Loader extends ClassLoader {
    Loader() {
      super(OddLocals.class.getClassLoader());
    }

    Method define(String name, byte[] b, String method) throws NoSuchMethodException {
      return defineClass(name, b, 0, b.length).getMethod(method, int.class, int.class);
    }
  }

  public static void main(String[] args) throws Exception {
    Loader loader = new Loader();
    byte[] reuse = {0x0a, 0x40, 0x1f, (byte) 0xad}; // lconst_1 lstore_1 lload_1 lreturn
    Method f = loader.define("Reuse", oneMethodClass("Reuse", "f", "(II)J", 3, reuse, null), "f");
    byte[] chop = {
      0x1a, (byte) 0x99, 0x00, 0x05, // 0: iload_0; ifeq 6
      0x04, (byte) 0xac, // 4: iconst_1; ireturn
      0x1a, 0x3c, // 6: iload_0; istore_1 (an int of its own in b's slot)
      0x1a, (byte) 0x9a, 0x00, 0x05, // 8: iload_0; ifne 14
      0x05, (byte) 0xac, // 12: iconst_2; ireturn
      0x1b, (byte) 0xac // 14: iload_1; ireturn
    };
    byte[] frames = {
      0x00, 0x02, // two frames
      (byte) 250, 0x00, 0x06, // at 6: chop 1 (locals: a)
      (byte) 252, 0x00, 0x07, 0x01 // at 14: append an int (locals: a, the int in b's slot)
    };
    Method g = loader.define("Chop", oneMethodClass("Chop", "g", "(II)I", 2, chop, frames), "g");
    long longs = 0;
    int ints = 0;
    for (int i = 0; i < CALLS; i++) {
      longs += (Long) f.invoke(null, i, i);
      ints += (Integer) g.invoke(null, 0, i);
    }
    System.out.println(longs + " " + ints);
  }
}
