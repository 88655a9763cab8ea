import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

// A real multi-method workload for the fidelity benchmark: the JDK's own Java compiler (javac,
// thousands of methods: scanning, parsing, attribution, flow analysis, code generation)
// compiling a generated set of classes again and again on one thread, "worker", for SECONDS
// (warm-up included: both profilers see it alike). Sources and class files stay in memory: no
// disk I/O. With rounds=N instead of SECONDS it does N compilations, a fixed amount of work
// (bench/calltree measures slowdowns with it).
//
//   java JavacWorkload SECONDS|rounds=N [CLASSES]
public class JavacWorkload {
  static List<JavaFileObject> sources(int classes) {
    List<JavaFileObject> out = new ArrayList<>();
    for (int c = 0; c < classes; c++) {
      StringBuilder s = new StringBuilder();
      s.append("package gen;\nimport java.util.*;\nimport java.util.function.*;\n");
      s.append("public class C").append(c).append(" {\n");
      for (int m = 0; m < 20; m++) {
        s.append("  public static <T extends Comparable<T>> List<T> m").append(m)
            .append("(List<T> in, Function<T, T> f, int k) {\n")
            .append("    List<T> out = new ArrayList<>();\n")
            .append("    for (T t : in) { if (t.compareTo(f.apply(t)) < k) out.add(f.apply(t)); }\n")
            .append("    Map<String, Integer> counts = new HashMap<>();\n")
            .append("    for (int i = 0; i < k; i++) counts.merge(\"k\" + (i % 7), i * ").append(m)
            .append(", Integer::sum);\n")
            .append("    out.sort(Comparator.naturalOrder());\n")
            .append("    return k > ").append(m).append(" ? out : m").append((m + 1) % 20).append("(out, f, k + 1);\n")
            .append("  }\n");
      }
      s.append("}\n");
      final String text = s.toString();
      out.add(new SimpleJavaFileObject(URI.create("string:///gen/C" + c + ".java"), JavaFileObject.Kind.SOURCE) {
        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
          return text;
        }
      });
    }
    return out;
  }

  // Class files are written to memory and dropped.
  static final class Discard extends ForwardingJavaFileManager<StandardJavaFileManager> {
    Discard(StandardJavaFileManager m) {
      super(m);
    }

    @Override
    public JavaFileObject getJavaFileForOutput(Location l, String name, JavaFileObject.Kind kind, FileObject sibling) {
      return new SimpleJavaFileObject(URI.create("mem:///" + name.replace('.', '/') + kind.extension), kind) {
        @Override
        public OutputStream openOutputStream() {
          return new ByteArrayOutputStream();
        }
      };
    }
  }

  public static void main(String[] args) throws Exception {
    final boolean byRounds = args[0].startsWith("rounds=");
    final long limit = Long.parseLong(byRounds ? args[0].substring("rounds=".length()) : args[0]);
    int classes = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    Thread worker = new Thread(() -> {
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      List<JavaFileObject> units = sources(classes);
      long end = System.nanoTime() + (byRounds ? 0 : limit * 1_000_000_000L);
      int rounds = 0;
      while (byRounds ? rounds < limit : System.nanoTime() < end) {
        try (Discard files = new Discard(javac.getStandardFileManager(null, null, null))) {
          if (!javac.getTask(null, files, null, List.of("-proc:none"), null, units).call())
            throw new IllegalStateException("compilation failed");
        } catch (java.io.IOException e) {
          throw new RuntimeException(e);
        }
        rounds++;
      }
      System.out.println(rounds + " rounds");
    }, "worker");
    worker.start();
    worker.join();
  }
}
