#pragma once
// Independent pieces of work spread over the machine's cores. A comparison asks each of its runs
// the same question (a summary's extensions, seed 004 sec. 2.2), and the runs are separate
// trees: with ten runs on two cores the answers come in about half the wall time.
//
// The threads are started once, on first use, and wait for work between calls: a comparison
// asks its runs hundreds to thousands of questions, and starting a thread for each cost more
// than the smaller questions themselves (a search of two small profiles would pay ~50 us of
// system time a question).

#include <cstddef>
#include <functional>

namespace bn::base {

// Calls work(i) once for every i in [0, count) on up to std::thread::hardware_concurrency()
// threads, the caller's among them, and returns once every call has returned. Which thread runs
// which i is unspecified, so work(i) must touch only what index i owns. The first exception a
// call throws is rethrown here once every call has ended; the indices not begun by then are
// skipped. The caller runs everything itself on one core, when the threads cannot be started,
// and while another call is running (from inside one of its calls, or from another thread).
void for_each_in_parallel(std::size_t count, const std::function<void(std::size_t)>& work);

}  // namespace bn::base
