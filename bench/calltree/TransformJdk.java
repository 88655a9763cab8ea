import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

// The call-tree transformer alone (bench/calltree/transform.sh): the first CLASSES classes of the
// JDK's java.xml module, read from the runtime image, each handed once to the agent's Transformer
// as the class-file hook would (include=*, trivial=count: every method), in a JVM that has never
// run it: the interpreter, the JIT's compilation of the transformer and ASM, and the
// transformation itself, as in a recording. The JVM runs the agent with an include= that matches
// nothing (transform.sh): Probe.pause needs the runtime's natives, which the agent registers. Prints this thread's CPU per class; the script times
// the whole process.
//
//   java TransformJdk JAR_DIR ASM_JARS CLASSES
//
// ASM_JARS: '-' where the transformer's jar holds ASM (relocated), else the jars to load it with.
public class TransformJdk {
  public static void main(String[] args) throws Exception {
    List<URL> urls = new ArrayList<>();
    urls.add(new File(args[0], "bottlenecks-runtime.jar").toURI().toURL());
    urls.add(new File(args[0], "bottlenecks-transformer.jar").toURI().toURL());
    if (!args[1].equals("-"))
      for (String jar : args[1].split(File.pathSeparator)) urls.add(new File(jar).toURI().toURL());
    int limit = Integer.parseInt(args[2]);
    ClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    Class<?> transformer = Class.forName("bottlenecks.transform.Transformer", true, loader);
    transformer.getMethod("configure", int.class, String[].class).invoke(null, 0, null); // 0: trivial=count
    Method transform = transformer.getMethod("transform", String.class, byte[].class);

    List<String> names = new ArrayList<>();
    List<byte[]> classes = new ArrayList<>();
    FileSystem image = FileSystems.getFileSystem(URI.create("jrt:/"));
    Path module = image.getPath("/modules/java.xml");
    try (Stream<Path> files = Files.walk(module)) {
      for (Path p : (Iterable<Path>) files.sorted()::iterator) {
        String name = module.relativize(p).toString();
        if (!name.endsWith(".class") || name.equals("module-info.class")) continue;
        names.add(name.substring(0, name.length() - ".class".length()));
        classes.add(Files.readAllBytes(p));
        if (names.size() == limit) break;
      }
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadCpuTime();
    long bytesOut = 0;
    for (int i = 0; i < names.size(); i++) {
      byte[] out = (byte[]) transform.invoke(null, names.get(i), classes.get(i));
      if (out != null) bytesOut += out.length;
    }
    long cpu = threads.getCurrentThreadCpuTime() - before;
    long[] counts = (long[]) transformer.getMethod("counts").invoke(null);
    System.out.printf(
        "%d classes (%d instrumented, %d methods, %d refused), %d bytes out: %.0f us of this thread's CPU per class%n",
        names.size(), counts[0], counts[1], counts[3], bytesOut, cpu / 1e3 / names.size());
  }
}
