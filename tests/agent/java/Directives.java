// Prints the JIT's compiler directives (the DiagnosticCommand MBean's Compiler.directives_print,
// as jcmd would), for the test that the agent keeps its transformer out of C2.
import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

public class Directives {
  public static void main(String[] args) throws Exception {
    Object printed =
        ManagementFactory.getPlatformMBeanServer()
            .invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"),
                "compilerDirectivesPrint",
                new Object[0],
                new String[0]);
    System.out.println(printed);
  }
}
