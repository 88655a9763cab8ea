#pragma once
// The constant pools of one JFR chunk that stacks, frame names and threads come from. A chunk's
// pools are spread over its checkpoint events (type id 1: start time, duration, delta to the
// previous checkpoint, a type byte, then pools of {class id, count, count × (key, value)}), and
// entries refer to each other (a stack trace to methods, a method to its class and symbols), so
// all are read before any is resolved. Pools of other classes are skipped value by value.

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "jfr_cursor.h"
#include "jfr_metadata.h"

namespace bn::calltree::jfr {

inline constexpr std::int64_t kCheckpointTypeId = 1;

struct MethodEntry {
  std::int64_t cls = -1, name = -1, descriptor = -1;  // keys: java.lang.Class, jdk.types.Symbol ×2
};
struct StackEntry {
  bool truncated = false;
  std::uint32_t first = 0, count = 0;  // method keys in ChunkPools::frame_methods, top frame first
};
struct ThreadEntry {
  JfrString java_name, os_name;
};

struct ChunkPools {
  std::unordered_map<std::int64_t, JfrString> strings;     // java.lang.String
  std::unordered_map<std::int64_t, JfrString> symbols;     // jdk.types.Symbol
  std::unordered_map<std::int64_t, std::int64_t> classes;  // java.lang.Class → its name's symbol key
  std::unordered_map<std::int64_t, MethodEntry> methods;   // jdk.types.Method
  std::unordered_map<std::int64_t, StackEntry> stacks;     // jdk.types.StackTrace
  std::vector<std::int64_t> frame_methods;
  std::unordered_map<std::int64_t, ThreadEntry> threads;  // java.lang.Thread

  // The text of a string, looked up in the String pool if it is a reference ("" if absent).
  std::string_view text(const JfrString& s) const;
  std::string_view symbol(std::int64_t key) const;
};

// Reads the pools of every checkpoint event among the events in [begin, end) of the chunk.
ChunkPools read_pools(Cursor& in, const JfrTypes& types, std::size_t begin, std::size_t end);

}  // namespace bn::calltree::jfr
