// Loads Plugin (from the directory args[0]) through a fresh class loader args[1] times, runs it
// while being sampled, drops the loader and collects it, so Plugin's methods are unloaded while
// the recorder holds their names.
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;

public class Unload {
  public static void main(String[] args) throws Exception {
    URL[] path = {new File(args[0]).toURI().toURL()};
    int rounds = Integer.parseInt(args[1]);
    for (int i = 0; i < rounds; i++) {
      try (URLClassLoader loader = new URLClassLoader(path, null)) {
        loader.loadClass("Plugin").getMethod("spin", long.class).invoke(null, 60L);
      }
      System.gc();
    }
  }
}
