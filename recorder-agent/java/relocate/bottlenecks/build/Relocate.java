package bottlenecks.build;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

/**
 * Build tool: writes one jar of the classes of the given directories and jars with every class
 * under {@code FROM} moved under {@code TO}, references included. It puts ASM into the call-tree
 * transformer's jar as {@code bottlenecks/transform/asm/...}, so that the compiler directive that
 * keeps the transformer out of C2 (recorder-agent/src/calltree/compiler_directives.h) names only our own
 * classes, never a program's own {@code org.objectweb.asm}. Everything but class files (manifests,
 * module-info) is left out. Entries are sorted and dated 1980, so the jar is the same every build.
 *
 * <pre>java bottlenecks.build.Relocate OUT.jar FROM/ TO/ INPUT...</pre>
 */
public final class Relocate {
  private Relocate() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 4) {
      System.err.println("usage: Relocate OUT.jar FROM/ TO/ INPUT (directory or jar)...");
      System.exit(2);
    }
    Remapper remapper = new PrefixRemapper(args[1], args[2]);
    Map<String, byte[]> classes = new TreeMap<>();
    for (int i = 3; i < args.length; i++) {
      for (Map.Entry<String, byte[]> c : read(Paths.get(args[i])).entrySet()) {
        ClassWriter writer = new ClassWriter(0);
        new ClassReader(c.getValue()).accept(new ClassRemapper(writer, remapper), 0);
        String name = remapper.map(c.getKey().substring(0, c.getKey().length() - ".class".length())) + ".class";
        if (classes.put(name, writer.toByteArray()) != null)
          throw new IOException(args[i] + ": class " + name + " is in two inputs");
      }
    }
    try (OutputStream file = Files.newOutputStream(Paths.get(args[0]));
        JarOutputStream jar = new JarOutputStream(file)) {
      for (Map.Entry<String, byte[]> c : classes.entrySet()) {
        JarEntry entry = new JarEntry(c.getKey());
        entry.setTimeLocal(LocalDateTime.of(1980, 1, 1, 0, 0)); // the earliest a zip entry holds
        jar.putNextEntry(entry);
        jar.write(c.getValue());
        jar.closeEntry();
      }
    }
  }

  /** The class files of a directory or a jar, by path inside it ("a/b/C.class"). */
  private static Map<String, byte[]> read(Path input) throws IOException {
    Map<String, byte[]> classes = new TreeMap<>();
    if (Files.isDirectory(input)) {
      try (Stream<Path> files = Files.walk(input)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          String name = input.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
          if (isClass(name)) classes.put(name, Files.readAllBytes(p));
        }
      }
      return classes;
    }
    try (JarFile jar = new JarFile(input.toFile())) {
      for (JarEntry e : (Iterable<JarEntry>) jar.stream()::iterator) {
        if (!isClass(e.getName())) continue;
        try (InputStream in = jar.getInputStream(e)) {
          classes.put(e.getName(), in.readAllBytes());
        }
      }
    }
    return classes;
  }

  private static boolean isClass(String name) {
    return name.endsWith(".class") && !name.endsWith("module-info.class") && !name.startsWith("META-INF/");
  }

  /** Maps every internal name starting with {@code from} to one starting with {@code to}. */
  private static final class PrefixRemapper extends Remapper {
    private final String from;
    private final String to;

    PrefixRemapper(String from, String to) {
      this.from = from;
      this.to = to;
    }

    @Override
    public String map(String internalName) {
      return internalName.startsWith(from) ? to + internalName.substring(from.length()) : internalName;
    }
  }
}
