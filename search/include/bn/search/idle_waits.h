#pragma once
// Idle waits: where a thread spends time without running and without holding anything up, so the
// time is nothing to optimise where it is spent (a worker waiting for work, a timer sleeping, the
// Finalizer and Reference Handler waiting for references). In a view of wall time (every sample
// of every thread, in any state; a Thread View, seed 000 sec. 4) such summaries are heavy and
// would lead every search; the code worth changing is whatever the waited-for thread does.
// A wait to enter a monitor (:MONITOR, even below Object.wait while it takes its monitor back)
// is contention, not idleness: its holder is code a person can change.

#include <string_view>
#include <vector>

namespace bn::search {

// Whether a summary's call path ends in an idle wait: its innermost element is a method of the
// table (idle_waits.cpp: Object.wait, Thread.sleep, Unsafe.park, ReferenceQueue.remove, socket
// accept and read waits; a JVM signature suffix "(...)" ignored) or the typed time of a thread
// waiting (:WAIT, seed 000 sec. 4). [..;Object.wait;:RUN] in a Server View is the CPU the wait
// used, and is no idle wait.
bool ends_in_idle_wait(const std::vector<std::string_view>& path);

}  // namespace bn::search
