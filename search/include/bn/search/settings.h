#pragma once
// The user-settable knobs of a session (`set ...` commands). Plain data: the engine reads them,
// the renderers read `names`, nothing else holds option state.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bn/iface/amount.h"

namespace bn::search {

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
  // `set noise skip`: suggesters and autolabel leave out differences within sampling noise
  // (Profile::noise; comparisons of sampled runs only).
  bool skip_noise = false;
  // `set limit N|all`: the most nearby summaries listed per group (SIZE_MAX for all). A hot
  // utility method has 10^5 callers in a 10M-node profile; 5 rows per group keep the four groups
  // of `select` within one screen (the paper's Fig. 1 shows a handful; 20 made a select of 66
  // rows) and its cost independent of the profile.
  std::size_t limit = kDefaultLimit;
  static constexpr std::size_t kDefaultLimit = 5;
  // `set width N|off`: the columns text output fits in, long call paths and names elided
  // (elide.h); 0 for no limit. The command-line tool starts it at the terminal's width.
  std::size_t width = kDefaultWidth;
  static constexpr std::size_t kDefaultWidth = 80;
};

std::string_view suggester_name(Suggester s);
std::string_view name_style_name(NameStyle s);
std::string limit_text(std::size_t limit);  // "20", "all"
std::string width_text(std::size_t width);  // "80", "off"

}  // namespace bn::search
