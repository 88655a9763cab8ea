// Which threads the JVM and the JDK start for themselves, and which Thread classes are the JDK's:
// the automatic grouping names the program's own Thread subclasses by class and every other thread
// by name, and `threads` lists the JVM's service threads apart from the program's.
#include <algorithm>
#include <array>
#include <string_view>

#include "bn/views/thread_classes.h"

namespace bn::views {
namespace {

// Names as fold_digits leaves them. The Java threads every HotSpot JVM starts (JDK 17: the
// reference and finalizer threads, signal and notification dispatch, the cleaner, jcmd's attach
// listener, and the thread that waits for the last non-daemon thread as `main` returns), the
// JDK's own daemons, and the JVM's native threads, should a recorder ever report them. All of
// them wait nearly all the time; a profile of every thread's state is mostly theirs.
constexpr std::array<std::string_view, 27> kServiceNames = {
    "Attach Listener",
    "C# CompilerThread#",
    "Common-Cleaner",
    "DestroyJavaVM",
    "Finalizer",
    "G# Conc#",
    "G# Main Marker",
    "G# Refine#",
    "G# Service",
    "G# Young RemSet Sampling",
    "GC Thread#",
    "JFR Periodic Tasks",
    "JFR Recorder Thread",
    "JFR Shutdown Hook",
    "JVMCI CompilerThread#",
    "Monitor Deflation Thread",
    "Notification Thread",
    "Reference Handler",
    "Service Thread",
    "Signal Dispatcher",
    "Sweeper thread",
    "VM JFR Buffer Thread",
    "VM Periodic Task Thread",
    "VM Thread",
    "bottlenecks-calltree",
    "bottlenecks-sampler",
    "process reaper",
};

constexpr std::string_view kNativeClassPrefix = "[JVM ";

}  // namespace

bool is_jdk_class(std::string_view thread_class) {
  static constexpr std::array<std::string_view, 5> kPrefixes = {"java.", "javax.", "jdk.", "sun.", "com.sun."};
  return thread_class.empty() || std::any_of(kPrefixes.begin(), kPrefixes.end(),
                                             [&](std::string_view p) { return thread_class.starts_with(p); });
}

bool is_jvm_service_thread(const calltree::ThreadEntry& thread) {
  // A recorder reports the JVM's native threads (compiler, GC, VM thread) under pseudo classes
  // such as "[JVM JIT compiler]": no Java class is named so.
  if (thread.thread_class.starts_with(kNativeClassPrefix)) return true;
  // A program may name a thread of its own "Finalizer"; the JVM's are of the JDK's classes.
  if (!is_jdk_class(thread.thread_class)) return false;
  const std::string folded = fold_digits(thread.name);
  return std::binary_search(kServiceNames.begin(), kServiceNames.end(), std::string_view(folded));
}

}  // namespace bn::views
