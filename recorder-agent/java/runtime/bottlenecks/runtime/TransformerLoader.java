package bottlenecks.runtime;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * Loads the transformer, and the ASM relocated into its jar, in a class loader of their own,
 * whose parent is the boot loader: ours never sees the program's classes, and a program's own
 * ASM (org.objectweb.asm) is another class, whatever its version.
 */
public final class TransformerLoader {
  private TransformerLoader() {}

  /** The class {@code name} from the jar {@code jar}. */
  public static Class<?> load(String jar, String name) throws Exception {
    URL[] urls = {new File(jar).toURI().toURL()};
    return Class.forName(name, true, new URLClassLoader(urls, null));
  }
}
