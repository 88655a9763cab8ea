#include "bn/iface/coverage.h"

namespace bn::iface {

Coverage coverage(Profile& p, std::span<const Summary> S) { return {p.total_cum_of(S), p.total()}; }

// Both are numerators over the same denominator, so it cancels in the ratio.
std::string percent_of_total(Profile& p, Amount a, int digits) { return percent_string(a, p.total(), digits); }

}  // namespace bn::iface
