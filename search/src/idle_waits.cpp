#include "bn/search/idle_waits.h"

#include <algorithm>
#include <iterator>

namespace bn::search {
namespace {

// The one table of idle waits: the frames a waiting thread's stack ends in on HotSpot 11-21 (a
// thread waiting in the VM itself, the Signal Dispatcher, has no Java frame), and the typed time
// of a waiting thread. Names are as the recorder and the importers write them (docs/formats.md).
constexpr std::string_view kIdleWaits[] = {
    // Object.wait and what waits with it (Thread.join); JDK 21 waits in wait0.
    "java.lang.Object.wait",
    "java.lang.Object.wait0",
    "java.lang.Thread.sleep",
    "java.lang.Thread.sleep0",
    "java.lang.Thread.sleepNanos",
    "java.lang.Thread.sleepNanos0",
    // java.util.concurrent: locks, queues, futures and pools all park.
    "jdk.internal.misc.Unsafe.park",
    "sun.misc.Unsafe.park",
    "java.util.concurrent.locks.LockSupport.park",
    "java.util.concurrent.locks.LockSupport.parkNanos",
    "java.util.concurrent.locks.LockSupport.parkUntil",
    // The Finalizer and Cleaner threads, and the Reference Handler.
    "java.lang.ref.ReferenceQueue.remove",
    "java.lang.ref.ReferenceQueue.remove0",
    "java.lang.ref.ReferenceQueue.await",
    "java.lang.ref.Reference.waitForReferencePendingList",
    // Sockets and selectors waiting for a peer: NIO polls, the old java.net blocks in native code.
    "sun.nio.ch.Net.accept",
    "sun.nio.ch.Net.poll",
    "sun.nio.ch.EPoll.wait",
    "sun.nio.ch.KQueue.poll",
    "sun.nio.ch.WEPoll.wait",
    "java.net.PlainSocketImpl.socketAccept",
    "java.net.SocketInputStream.socketRead0",
    // A parent waiting for a child process.
    "java.lang.ProcessHandleImpl.waitForProcessExit0",
    // Typed time (views/pseudo_names.h): a thread waiting, not runnable and not blocked on a monitor.
    ":WAIT",
};

}  // namespace

bool ends_in_idle_wait(const std::vector<std::string_view>& path) {
  if (path.empty()) return false;
  const std::string_view m = path.back().substr(0, path.back().find('('));  // a signature (--signatures)
  return std::ranges::find(kIdleWaits, m) != std::end(kIdleWaits);
}

}  // namespace bn::search
