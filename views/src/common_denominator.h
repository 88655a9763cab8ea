#pragma once
// One common denominator for all of a view's weights (docs/architecture.md "Costs are exact": hot-path sums stay
// integer adds and nothing drifts): the lcm of the reduced denominators that actually occur,
// e.g. the runnable-thread counts e of Table 1. Costs are stored as integer numerators over it,
// so the lcm times the largest total must fit the integers that hold them; when it does not,
// the view is refused with the cause rather than overflowed or rounded.

#include <cstdint>
#include <string>
#include <unordered_set>

#include "bn/iface/amount.h"
#include "weight.h"

namespace bn::views::detail {

class CommonDenominator {
 public:
  void add(Weight w) {
    if (w.den != last_) {
      last_ = w.den;
      seen_.insert(w.den);
    }
    total_ += w.num / w.den + (w.num % w.den != 0 ? 1 : 0);
  }
  // D, when every total of the weights added, times D, fits in `bits` bits (63 for the int64
  // costs of a call tree, at most 127). Otherwise throws bn::Error naming `what`, the bits
  // needed and why, and ending with `hint` (what else the user can do).
  iface::Amount finish(const std::string& what, int bits, const std::string& hint) const;

 private:
  std::uint64_t last_ = 1;
  std::unordered_set<std::uint64_t> seen_{1};
  U128 total_ = 0;  // an upper bound of the sum of the weights
};

// w's numerator over the common denominator D (w.den divides D; the caller checked the range).
inline iface::Amount numerator(Weight w, iface::Amount d) {
  return static_cast<iface::Amount>(w.num) * (d / static_cast<iface::Amount>(w.den));
}

}  // namespace bn::views::detail
