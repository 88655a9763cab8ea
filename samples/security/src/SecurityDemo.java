// The same fixed amount of work, run once with a SecurityManager and once without, so that the
// difference of the two profiles (seed 004 sec. 2.3) is the cost of the security checks.
// Every operation below is one the SecurityManager guards: file reads (checkRead), property
// lookups (checkPropertyAccess), reflective access (checkPermission with
// ReflectPermission "suppressAccessChecks"), and class loading by name.

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;

public final class SecurityDemo {
  private int secret = 7;  // read reflectively

  public static void main(String[] args) throws Exception {
    final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    final File data = File.createTempFile("security-demo", ".txt");
    data.deleteOnExit();
    Files.writeString(data.toPath(), "0123456789abcdef");
    System.out.println("security manager: " + (System.getSecurityManager() != null ? "enabled" : "disabled"));
    long checksum = 0;
    for (int i = 0; i < rounds; ++i) {
      checksum += readFile(data);
      checksum += lookUpProperties();
      checksum += reflect();
      checksum += compute(i);
    }
    System.out.println("checksum " + checksum);
  }

  // FileInputStream's constructor and File.exists call SecurityManager.checkRead.
  static long readFile(File file) throws IOException {
    long sum = file.exists() ? 1 : 0;
    try (FileInputStream in = new FileInputStream(file)) {
      sum += in.read();
    }
    return sum;
  }

  // System.getProperty calls SecurityManager.checkPropertyAccess.
  static long lookUpProperties() {
    return System.getProperty("java.version").length() + System.getProperty("user.dir").length()
        + Integer.getInteger("security.demo.missing", 3);
  }

  // setAccessible checks ReflectPermission("suppressAccessChecks"); Class.forName with a loader
  // and getDeclaredField check RuntimePermission("accessDeclaredMembers") for other loaders.
  static long reflect() throws ReflectiveOperationException {
    final Class<?> c = Class.forName("SecurityDemo", false, ClassLoader.getSystemClassLoader());
    final Field f = c.getDeclaredField("secret");
    f.setAccessible(true);
    return f.getInt(new SecurityDemo());
  }

  // Work that no check guards, equal in both runs.
  static long compute(int i) {
    long h = i;
    for (int k = 0; k < 200; ++k) h = h * 31 + (h >>> 7) + k;
    return h & 1;
  }
}
