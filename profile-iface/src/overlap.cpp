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

}  // namespace bn::iface
