#pragma once
// Names of the nodes a view adds below a thread's stack (seed 000 sec. 4): the typed-time
// pseudo-methods as the paper writes them, and the refinement nodes below them. None can equal a
// Java frame (`pkg.Class.method`, or the recorder's `[no Java frames]`-style pseudo-frames): a
// Java name never starts with ':' or '@'. Names never contain ';' (the separator of `path` and
// of collapsed stacks).
//
//   :RUN :LOAD :PRIO :MONITOR :WAIT   typed time, the leaf of every thread instance's stack
//   :THREAD <class>                   below :LOAD and :PRIO, a class of the threads that held the
//                                     CPUs; below :MONITOR, the class of the thread holding it
//   @pkg.Class.method                 below :MONITOR's :THREAD node, the holder's own stack at
//                                     that tick, outermost frame first (the holder is *at* it)
//   :UNKNOWN                          who held the monitor or the CPUs was not recorded

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace bn::views {

// The five types of time of seed 000 sec. 4; the first three are the runnable types.
enum class TimeType : std::uint8_t { run, load, prio, monitor, wait };
inline constexpr std::size_t kTimeTypes = 5;
inline constexpr std::array<TimeType, kTimeTypes> kAllTimeTypes = {TimeType::run, TimeType::load, TimeType::prio,
                                                                   TimeType::monitor, TimeType::wait};

std::string_view name_of(TimeType type);  // ":RUN", ...
inline constexpr std::string_view kUnknownNode = ":UNKNOWN";
inline constexpr std::string_view kThreadNodePrefix = ":THREAD ";
inline constexpr char kHolderFramePrefix = '@';

// ":THREAD pool-#-thread-#".
std::string thread_class_node(std::string_view thread_class);
// "@com.example.Mailbox.put".
std::string holder_frame(std::string_view method);

}  // namespace bn::views
