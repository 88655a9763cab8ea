#include "bn/iface/overlap.h"

namespace bn::iface {
namespace {

std::vector<Summary> with(std::span<const Summary> S, Summary s) {
  std::vector<Summary> all(S.begin(), S.end());
  all.push_back(s);
  return all;
}

}  // namespace

Amount cum_overlap(Profile& p, Summary s, std::span<const Summary> S) {
  return p.cum_of(s) + p.total_cum_of(S) - p.total_cum_of(with(S, s));
}

Amount base_overlap(Profile& p, Summary s, std::span<const Summary> S) {
  return p.base_of(s) + p.total_base_of(S) - p.total_base_of(with(S, s));
}

std::optional<Summary> summary_for_path(Profile& p, std::span<const std::string_view> path) {
  if (path.empty()) return std::nullopt;
  std::optional<Summary> s = p.method_summary(path.front());
  for (std::size_t i = 1; s && i < path.size(); ++i) s = p.extend_bottom(*s, path[i]);
  return s;
}

}  // namespace bn::iface
