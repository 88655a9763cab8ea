// Loaded by Unload through a throw-away class loader, so that it can be unloaded mid-recording.
public class Plugin {
  static volatile long sink;

  public static void spin(long ms) {
    long end = System.nanoTime() + ms * 1_000_000L;
    while (System.nanoTime() < end) sink += System.nanoTime() & 7;
  }
}
