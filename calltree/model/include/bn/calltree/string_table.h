#pragma once
// Interned strings (method names). Ids are dense and stable; lookups are O(1) expected.
//
// Opening a profile appends every name of the file (156k at 10M nodes), so appending is what is
// fast: the characters go into large blocks (no allocation per name) and the index is an open
// addressing table of ids (no node per entry), sized once when the reader knows the count.

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "bn/calltree/types.h"

namespace bn::calltree {

class StringTable {
 public:
  StringTable() = default;
  StringTable(const StringTable&) = delete;
  StringTable& operator=(const StringTable&) = delete;
  StringTable(StringTable&&) noexcept = default;
  StringTable& operator=(StringTable&&) noexcept = default;

  // Returns the id of `s`, adding it if it is new.
  MethodId intern(std::string_view s);
  // Appends `s` even if an equal string exists (readers keep the file's numbering);
  // lookups then find the first occurrence.
  MethodId append(std::string_view s);
  std::optional<MethodId> find(std::string_view s) const;
  // Room for `count` strings in all without growing the index.
  void reserve(std::size_t count);
  // An equal table (same ids), for the rare deliberate copy of a tree.
  StringTable copy() const;
  // True if append ever added a string equal to an earlier one (two ids, one name).
  bool has_repeats() const { return has_repeats_; }

  std::string_view operator[](MethodId id) const { return views_[id]; }
  std::size_t size() const { return views_.size(); }

 private:
  // An index entry: the string's id + 1 (0: empty slot) and the upper half of its hash, which
  // rules out most unequal strings without reading them.
  struct Slot {
    std::uint32_t id_plus_one = 0;
    std::uint32_t tag = 0;
  };
  // The slot holding `s`, or the empty slot where it would go.
  std::size_t probe(std::string_view s, std::uint64_t hash) const;
  void grow_index(std::size_t capacity);
  std::string_view store(std::string_view s);

  std::vector<std::unique_ptr<char[]>> blocks_;  // characters; never move, so views stay valid
  std::size_t last_block_size_ = 0;
  std::size_t last_block_used_ = 0;
  std::vector<std::string_view> views_;
  std::vector<Slot> index_;  // a power of two in size, at most half full
  bool has_repeats_ = false;
};

}  // namespace bn::calltree
