#pragma once
// Sums of costs kept in 64 bits while they fit, checked at every add, with the exact 128-bit
// Amount only once one does not: half the memory of Amount and plain 64-bit adds. A
// cost is 64-bit, but a sum of many costs of both signs (a comparative or filtered tree) can
// leave 64 bits where the whole tree's total does not. MethodTotals then figures every method
// again in 128 bits; PrefixSums (node_region.h) widens the list it is building.

namespace bn::calltree {

// sum += value when the exact result fits Sum; false, and sum unspecified, when it does not.
template <typename Sum, typename Value>
bool add_fits(Sum& sum, Value value) {
  return !__builtin_add_overflow(sum, value, &sum);
}

}  // namespace bn::calltree
