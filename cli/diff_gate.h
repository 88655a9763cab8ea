#pragma once
// `bottlenecks diff --fail-if EXPR`: when a comparison fails the build (docs/compare.md, "The
// diff gate"). The grammar, one expression per option:
//   cum > P%            a reported summary's significant regression above P% of the baseline
//   total > P%          the total's significant increase above P%
//   method GLOB > P%    the significant increase of the cum of the methods matching GLOB ('*'
//                       matches any run of characters: com.acme.*) above P%
// P is a non-negative decimal; the '%' is required, so "2" is never read as 200%.

#include <string>
#include <string_view>
#include <vector>

namespace bn::cli {

struct Gate {
  enum class Kind { cum, total, method };
  Kind kind = Kind::cum;
  std::string glob;      // Kind::method only
  double threshold = 0;  // a share of the baseline's total: 2% is 0.02
  std::string text;      // as given, for the report
};

// Throws bn::Error naming the expression and what is wrong in one line:
// "--fail-if 'cum >= 2%': expected '>' after 'cum'".
Gate parse_gate(std::string_view text);

// A percentage as `--min-effect` and the gates take it, "0.5%" or "0.5" (the '%' optional there);
// `what` names the option in the error.
double parse_percent(std::string_view text, std::string_view what, bool percent_sign_required);

// The gate when none is given.
inline constexpr std::string_view kDefaultGate = "cum > 1%";

}  // namespace bn::cli
