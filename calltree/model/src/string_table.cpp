#include "bn/calltree/string_table.h"

namespace bn::calltree {

MethodId StringTable::intern(std::string_view s) {
  if (auto found = index_.find(s); found != index_.end()) return found->second;
  return append(s);
}

MethodId StringTable::append(std::string_view s) {
  const auto id = static_cast<MethodId>(views_.size());
  const std::string& owned = storage_.emplace_back(s);
  views_.push_back(owned);
  index_.try_emplace(std::string_view(owned), id);
  return id;
}

StringTable StringTable::copy() const {
  StringTable table;
  for (std::string_view s : views_) table.append(s);
  return table;
}

std::optional<MethodId> StringTable::find(std::string_view s) const {
  if (auto found = index_.find(s); found != index_.end()) return found->second;
  return std::nullopt;
}

}  // namespace bn::calltree
