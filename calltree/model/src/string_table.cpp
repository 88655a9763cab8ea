#include "bn/calltree/string_table.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace bn::calltree {
namespace {

constexpr std::size_t kBlockBytes = std::size_t{1} << 16;

std::uint64_t hash_of(std::string_view s) { return std::hash<std::string_view>{}(s); }
std::uint32_t tag_of(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }

}  // namespace

std::size_t StringTable::probe(std::string_view s, std::uint64_t hash) const {
  const std::size_t mask = index_.size() - 1;
  const std::uint32_t tag = tag_of(hash);
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = index_[i];
    if (slot.id_plus_one == 0 || (slot.tag == tag && views_[slot.id_plus_one - 1] == s)) return i;
  }
}

void StringTable::grow_index(std::size_t capacity) {
  std::vector<Slot> old = std::move(index_);
  index_.assign(capacity, Slot{});
  for (const Slot& slot : old) {
    if (slot.id_plus_one == 0) continue;
    const std::uint64_t hash = hash_of(views_[slot.id_plus_one - 1]);
    const std::size_t mask = capacity - 1;
    std::size_t i = hash & mask;
    while (index_[i].id_plus_one != 0) i = (i + 1) & mask;
    index_[i] = slot;
  }
}

void StringTable::reserve(std::size_t count) {
  // Geometric, so that a reader reserving chunk by chunk (a recorder's file has many) stays linear.
  if (count > views_.capacity()) views_.reserve(std::max(count, 2 * views_.capacity()));
  std::size_t capacity = std::max<std::size_t>(index_.size(), 16);
  while (capacity < 2 * count) capacity *= 2;
  if (capacity != index_.size()) grow_index(capacity);
}

std::string_view StringTable::store(std::string_view s) {
  if (blocks_.empty() || s.size() > last_block_size_ - last_block_used_) {
    last_block_size_ = std::max(kBlockBytes, s.size());
    last_block_used_ = 0;
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(last_block_size_));
  }
  char* at = blocks_.back().get() + last_block_used_;
  if (!s.empty()) std::memcpy(at, s.data(), s.size());
  last_block_used_ += s.size();
  return {at, s.size()};
}

MethodId StringTable::intern(std::string_view s) {
  if (const auto found = find(s)) return *found;
  return append(s);
}

MethodId StringTable::append(std::string_view s) {
  if (2 * (views_.size() + 1) > index_.size()) reserve(std::max<std::size_t>(2 * views_.size(), 8));
  const auto id = static_cast<MethodId>(views_.size());
  const std::uint64_t hash = hash_of(s);
  Slot& slot = index_[probe(s, hash)];
  views_.push_back(store(s));
  if (slot.id_plus_one == 0)
    slot = {id + 1, tag_of(hash)};
  else
    has_repeats_ = true;
  return id;
}

StringTable StringTable::copy() const {
  StringTable table;
  table.reserve(views_.size());
  for (std::string_view s : views_) table.append(s);
  return table;
}

std::optional<MethodId> StringTable::find(std::string_view s) const {
  if (index_.empty()) return std::nullopt;
  const Slot& slot = index_[probe(s, hash_of(s))];
  if (slot.id_plus_one == 0) return std::nullopt;
  return slot.id_plus_one - 1;
}

}  // namespace bn::calltree
