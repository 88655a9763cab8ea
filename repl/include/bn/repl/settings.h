#pragma once
// The user-settable knobs of a session (`set ...` commands). Plain data: the engine reads them,
// the renderers read `names`, nothing else holds option state.

#include <string_view>

#include "bn/iface/amount.h"

namespace bn::repl {

// Seed 004 sec. 2.3: the two suggesters, ranking length-1 summaries by |cum| or |base|.
enum class Suggester { kHighCum, kHighBase };

// `set names short` prints `Class.method` without the package, like seed 004 Fig. 1.
enum class NameStyle { kFull, kShort };

struct Settings {
  Suggester suggester = Suggester::kHighCum;
  bool zoom = false;
  // The zoom cutoff ratio c of sec. 2.3: a positive real, default 0.95. Kept exact so the test
  // |total_cum_of(T)| >= c·|cum_of(s)| never depends on floating-point rounding.
  iface::Rational cutoff{19, 20};
  NameStyle names = NameStyle::kFull;
};

std::string_view suggester_name(Suggester s);
std::string_view name_style_name(NameStyle s);

}  // namespace bn::repl
