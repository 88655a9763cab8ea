import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;

// A method that reuses its last parameter's slot for a long, which javac never writes (other
// compilers and optimisers may): the transformer's MethodProbe cannot shift such locals and
// redoes the class with ConstructorProbe. The class is written here byte by byte:
//
//   public class Reuse { public static long f(int a, int b) { lconst_1; lstore_1; lload_1; lreturn } }
//
// (the long lives in slots 1 and 2; the parameters are slots 0 and 1). main calls f CALLS times
// and prints the sum of its results (CALLS: f returns 1).
public class Straddle {
  static final int CALLS = 10;

  static byte[] reuseClass() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(0xCAFEBABE);
    out.writeShort(0);
    out.writeShort(52); // Java 8: frames, none needed without branches
    out.writeShort(8); // constant pool: 7 entries
    out.writeByte(1);
    out.writeUTF("Reuse"); // #1
    out.writeByte(7);
    out.writeShort(1); // #2 class Reuse
    out.writeByte(1);
    out.writeUTF("java/lang/Object"); // #3
    out.writeByte(7);
    out.writeShort(3); // #4 class Object
    out.writeByte(1);
    out.writeUTF("f"); // #5
    out.writeByte(1);
    out.writeUTF("(II)J"); // #6
    out.writeByte(1);
    out.writeUTF("Code"); // #7
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
    out.writeInt(16);
    out.writeShort(2); // max stack
    out.writeShort(3); // max locals
    out.writeInt(4);
    out.write(new byte[] {0x0a, 0x40, 0x1f, (byte) 0xad}); // lconst_1 lstore_1 lload_1 lreturn
    out.writeShort(0); // exception table
    out.writeShort(0); // attributes
    out.writeShort(0); // class attributes
    return bytes.toByteArray();
  }

  static final class Loader extends ClassLoader {
    Loader() {
      super(Straddle.class.getClassLoader());
    }

    Class<?> define(byte[] b) {
      return defineClass("Reuse", b, 0, b.length);
    }
  }

  public static void main(String[] args) throws Exception {
    Method f = new Loader().define(reuseClass()).getMethod("f", int.class, int.class);
    long sum = 0;
    for (int i = 0; i < CALLS; i++) sum += (Long) f.invoke(null, i, i);
    System.out.println(sum);
  }
}
