#include "bn/comparative/false_discovery.h"

#include <algorithm>
#include <numeric>

namespace bn::comparative {

std::vector<bool> benjamini_hochberg(std::span<const double> p, double q) {
  const std::size_t m = p.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return p[i] < p[j]; });
  // The largest rank k (1-based) whose p-value is within k·q/m; every smaller p is rejected too.
  std::size_t rejected = 0;
  for (std::size_t k = 1; k <= m; ++k)
    if (p[order[k - 1]] <= static_cast<double>(k) * q / static_cast<double>(m)) rejected = k;
  std::vector<bool> out(m, false);
  for (std::size_t k = 0; k < rejected; ++k) out[order[k]] = true;
  return out;
}

}  // namespace bn::comparative
