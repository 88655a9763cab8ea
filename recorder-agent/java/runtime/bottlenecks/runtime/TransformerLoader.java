package bottlenecks.runtime;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * Loads the transformer and the ASM it is built on in a class loader of their own, whose parent
 * is the boot loader: a program that ships its own (other) ASM never sees ours, and ours never
 * sees the program's classes.
 */
public final class TransformerLoader {
  private TransformerLoader() {}

  /** The class {@code name} from the jars of {@code classPath} (separated by File.pathSeparator). */
  public static Class<?> load(String classPath, String name) throws Exception {
    String[] paths = classPath.split(File.pathSeparator);
    URL[] urls = new URL[paths.length];
    for (int i = 0; i < paths.length; i++) urls[i] = new File(paths[i]).toURI().toURL();
    return Class.forName(name, true, new URLClassLoader(urls, null));
  }
}
