// A program that uses ASM itself, under ASM's own name (org.objectweb.asm, on its class path), as
// cglib, Gradle or JRuby do: the test that the agent's compiler directive, which keeps the
// agent's own (relocated) ASM out of C2, leaves the program's ASM to C2. Calls one small ASM
// method many times; run with -Xbatch -XX:+PrintCompilation, the JVM prints its level-4 (C2)
// compilation. main itself is kept interpreted by the test (CompileCommand=exclude), so every
// call reaches the ASM method, never inlined into a compiled main.
import org.objectweb.asm.Type;

public class AsmUser {
  public static void main(String[] args) {
    int calls = Integer.parseInt(args[0]);
    long sum = 0;
    for (int i = 0; i < calls; i++)
      sum += Type.getArgumentsAndReturnSizes("(IJLjava/lang/String;[D)V");
    System.out.println("sizes " + sum);
  }
}
