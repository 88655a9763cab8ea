#pragma once
// Thread classes (seed 000 sec. 4-5: a Thread View is of one thread class, normalised by the
// number of its thread instances). A class is the Thread object's class, or the thread's name
// with numbers folded, since most servers run plain java.lang.Threads.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bn/calltree/sample_data.h"
#include "bn/views/view_spec.h"

namespace bn::views {

// Every maximal run of ASCII digits becomes one '#': "pool-3-thread-17" -> "pool-#-thread-#".
std::string fold_digits(std::string_view name);

// A class of the JDK's (java., javax., jdk., sun., com.sun.), or no class at all: not the
// program's own Thread subclass.
bool is_jdk_class(std::string_view thread_class);
// A thread the JVM or the JDK starts for itself (Reference Handler, Finalizer, Signal Dispatcher,
// Common-Cleaner, Notification Thread, Attach Listener, ...; one table in jvm_threads.cpp): its
// name, digits folded, is in the table and its class is the JDK's; or a native JVM thread, whose
// pseudo class begins "[JVM " ("[JVM JIT compiler]").
bool is_jvm_service_thread(const calltree::ThreadEntry& thread);

struct ThreadClasses {
  std::vector<std::string> names;        // class index -> name, sorted
  std::vector<std::uint32_t> of_thread;  // ThreadEntry::index -> class index
  std::vector<bool> jvm_service;         // class index -> every thread of it is a JVM service thread

  // Index of the class with exactly this name.
  std::optional<std::uint32_t> find(std::string_view name) const;
};

// Class names are made representable everywhere a node name goes: ';' becomes ',', line breaks
// and NUL become ' ', and an empty name is "(unnamed)". Grouping::by_kind names a thread by its
// class when that is the program's own (not is_jdk_class), else by its name with digits folded.
ThreadClasses group_threads(std::span<const calltree::ThreadEntry> threads, Grouping grouping);

}  // namespace bn::views
