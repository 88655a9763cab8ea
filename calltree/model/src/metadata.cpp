#include "bn/calltree/metadata.h"

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

}  // namespace bn::calltree
