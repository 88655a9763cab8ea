package bottlenecks.transform;

import bottlenecks.runtime.MethodNames;
import bottlenecks.runtime.Probe;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The agent's ClassFileLoadHook calls {@link #transform} (through JNI, with the class already
 * chosen by name: the never-touched set and include=/exclude= are the agent's) and gets the
 * class with probes in every method that has code (MethodProbe; ConstructorProbe for
 * constructors), or null to leave it as it is.
 *
 * <p>Frames are not recomputed (that would need the common superclass of two types, i.e. loading
 * classes from inside a class load): the original frames are kept, with the probes' local
 * added, and the probes need no new ones except their handlers'. Classes older than Java 6
 * (version 50) have no frames to keep and are left alone.
 */
public final class Transformer {
  private Transformer() {}

  private static volatile int trivialRule; // 0 trivial=count, 1 skip, 2 wrappers
  private static volatile Set<String> only; // null: every method; else "pkg.Class.method" names

  private static final Object LOCK = new Object();
  private static long classes, methods, trivialSkipped, refused;

  /**
   * rule: trivial=count (0), skip (1) or wrappers (2). methods: the only methods to instrument
   * (methods=), or null.
   */
  public static void configure(int rule, String[] methodNames) {
    trivialRule = rule;
    if (methodNames == null) {
      only = null;
    } else {
      Set<String> set = new HashSet<>();
      for (String m : methodNames) set.add(m);
      only = set;
    }
  }

  /** {classes instrumented, methods instrumented, trivial methods skipped, classes refused}. */
  public static long[] counts() {
    synchronized (LOCK) {
      return new long[] {classes, methods, trivialSkipped, refused};
    }
  }

  /** The instrumented class, or null to keep {@code bytes} (nothing to instrument, or an error). */
  public static byte[] transform(String internalName, byte[] bytes) {
    Object recording = Probe.pause();
    try {
      return instrument(internalName, bytes);
    } finally {
      Probe.resume(recording);
    }
  }

  private static byte[] instrument(String internalName, byte[] bytes) {
    try {
      ClassReader reader = new ClassReader(bytes);
      if (reader.readShort(6) < Opcodes.V1_6) return null; // major version: no stack map frames
      Set<String> trivial = trivialRule == 0 ? Set.of() : TrivialScan.of(reader, trivialRule == 2);
      // Maxima: ProbeCode.maxStack and the probes' local, not ASM's COMPUTE_MAXS.
      ClassWriter writer = new ClassWriter(reader, 0);
      Instrument visitor = new Instrument(writer, internalName, trivial, only, null);
      try {
        reader.accept(visitor, 0); // frames compressed: FrameLocals
      } catch (MethodProbe.Straddling e) {
        writer = new ClassWriter(reader, 0);
        visitor = new Instrument(writer, internalName, trivial, only, visitor.ids);
        reader.accept(visitor, 0); // frames compressed: FrameLocals
      }
      synchronized (LOCK) {
        trivialSkipped += visitor.trivialSkipped;
        if (visitor.instrumented == 0) return null;
        classes++;
        methods += visitor.instrumented;
      }
      return writer.toByteArray();
    } catch (Throwable t) {
      // Anything ASM or the verifier-minded checks above refuse (a method grown past 64 KiB,
      // a constructor without a super() call): the class runs unprofiled, counted.
      synchronized (LOCK) {
        refused++;
      }
      return null;
    }
  }

  private static final class Instrument extends ClassVisitor {
    final String internalName; // pkg/Outer$Inner
    final String className; // pkg.Outer$Inner
    final Set<String> trivial;
    final Set<String> only;
    // Null: MethodProbe for every method but the constructors. Else the ids an attempt with it
    // gave out, in order, before MethodProbe met a method whose locals it cannot shift; this
    // attempt uses ConstructorProbe for every method, with the same ids.
    final List<Integer> reused;
    final List<Integer> ids = new ArrayList<>();
    int instrumented;
    int trivialSkipped;

    Instrument(ClassVisitor next, String internalName, Set<String> trivial, Set<String> only, List<Integer> reused) {
      super(Opcodes.ASM9, next);
      this.internalName = internalName;
      this.className = internalName.replace('/', '.');
      this.trivial = trivial;
      this.only = only;
      this.reused = reused;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
      MethodVisitor next = super.visitMethod(access, name, desc, signature, exceptions);
      if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return next;
      String full = className + "." + name;
      if (only != null && !only.contains(full)) return next;
      // A method named in methods= is wanted, however small.
      if (only == null && trivial.contains(name + desc)) {
        trivialSkipped++;
        return next;
      }
      int id = reused != null && instrumented < reused.size() ? reused.get(instrumented) : MethodNames.register(full);
      ids.add(id);
      instrumented++;
      if (reused == null && !name.equals("<init>")) {
        ProbeCode probes = new ProbeCode(next, id, Opcodes.F_FULL);
        return new HandlerStarts(new MethodProbe(next, probes, internalName, access, name, desc), probes);
      }
      ProbeCode probes = new ProbeCode(next, id, Opcodes.F_NEW);
      MethodVisitor expanded = new ConstructorProbe(next, probes, access, name, desc);
      return new HandlerStarts(new FrameExpander(expanded, internalName, access, name, desc), probes);
    }
  }
}
