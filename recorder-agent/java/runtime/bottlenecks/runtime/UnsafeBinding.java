package bottlenecks.runtime;

/**
 * Rebinds Unsafe.park and unpark to the causal recording's wrappers (the agent's blocking hooks,
 * recorder-agent/src/causal/blocking_hooks.h). HotSpot warns on the program's output when code
 * outside the boot and platform loaders rebinds a native of a JDK module ("Re-registering of
 * platform native method", jni_RegisterNatives in jni.cpp), judging by the Java caller of
 * RegisterNatives: the method that called the native that calls it. Called from this class, on the
 * boot class path, the caller is the boot loader's, as Unsafe is.
 */
public final class UnsafeBinding {
  private UnsafeBinding() {}

  /** Whether the wrappers are bound. */
  public static boolean rebind() {
    return rebind0(); // the caller RegisterNatives sees is this frame, not the agent's call
  }

  private static native boolean rebind0(); // the agent registers it

}
