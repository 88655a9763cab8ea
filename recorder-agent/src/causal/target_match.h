#pragma once
// Whether a sampled stack satisfies a compiled target (causal_targets.h), in the signal handler:
// no allocation, no lock. `bits[i]` holds the symbols of frame i, frames outermost first.
//
// A sequence's gaps cut it into segments of consecutive frames that must appear in order; the
// earliest match of each segment leaves the most room for the ones after it, so matching each
// segment at its first position after the previous one's end decides the whole sequence
// (docs/aspects.md: the match may start and end anywhere in the stack). O(frames x elements).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "causal/causal_targets.h"

namespace bn::agent {

inline bool satisfies(std::span<const std::uint64_t> bits, const CompiledSummary& summary) {
  std::size_t from = 0;  // first frame the next segment may use
  std::size_t e = 0;
  while (e < summary.size()) {
    if (summary[e].gap) {
      ++e;
      continue;
    }
    std::size_t end = e;  // the segment is summary[e, end)
    while (end < summary.size() && !summary[end].gap) ++end;
    const std::size_t length = end - e;
    bool found = false;
    for (std::size_t start = from; start + length <= bits.size() && !found; ++start) {
      std::size_t k = 0;
      while (k < length && (bits[start + k] >> summary[e + k].symbol & 1) != 0) ++k;
      if (k == length) {
        found = true;
        from = start + length;
      }
    }
    if (!found) return false;
    e = end;
  }
  return true;
}

inline bool satisfies_any(std::span<const std::uint64_t> bits, const std::vector<CompiledSummary>& target) {
  for (const CompiledSummary& s : target)
    if (satisfies(bits, s)) return true;
  return false;
}

}  // namespace bn::agent
