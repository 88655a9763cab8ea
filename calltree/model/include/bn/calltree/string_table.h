#pragma once
// Interned strings (method names). Ids are dense and stable; lookups are O(1) expected.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
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
  // An equal table (same ids), for the rare deliberate copy of a tree.
  StringTable copy() const;

  std::string_view operator[](MethodId id) const { return views_[id]; }
  std::size_t size() const { return views_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  // Each string is owned by a std::string in a deque (stable addresses); views point into them.
  std::deque<std::string> storage_;
  std::vector<std::string_view> views_;
  std::unordered_map<std::string_view, MethodId, Hash, std::equal_to<>> index_;
};

}  // namespace bn::calltree
