#include "bn/calltree/metadata.h"

#include <unordered_map>

namespace bn::calltree {

std::optional<std::string_view> Metadata::find_extra(std::string_view key) const {
  for (const auto& [k, v] : extra)
    if (k == key) return std::string_view(v);
  return std::nullopt;
}

void Metadata::set_extra(std::string key, std::string value) {
  for (auto& [k, v] : extra) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  extra.emplace_back(std::move(key), std::move(value));
}

void Metadata::merge_repeated_extras() {
  std::unordered_map<std::string_view, std::size_t> first;  // key -> its index in `kept`
  std::vector<std::pair<std::string, std::string>> kept;
  kept.reserve(extra.size());
  first.reserve(extra.size());
  for (auto& [key, value] : extra) {
    if (const auto it = first.find(key); it != first.end()) {
      kept[it->second].second = std::move(value);
      continue;
    }
    kept.emplace_back(std::move(key), std::move(value));
    first.emplace(kept.back().first, kept.size() - 1);
  }
  extra = std::move(kept);
}

}  // namespace bn::calltree
