#pragma once
// Strict parsing of the numbers users type. Errors are bn::Error naming what was expected.

#include <cstdint>
#include <string_view>

#include "bn/iface/amount.h"

namespace bn::search {

// A whole number in [lo, hi]; `what` names the argument ("summary number").
std::int64_t parse_whole(std::string_view text, std::int64_t lo, std::int64_t hi, std::string_view what);
// A positive decimal typed as digits with an optional fraction ("0.95", "2", ".5"); no signs or
// exponents. Exact; throws unless the value is > 0.
iface::Rational parse_positive_decimal(std::string_view text, std::string_view what);
// Shortest exact decimal text of a rational with a terminating expansion ("0.95"), else "p/q".
std::string rational_text(const iface::Rational& r);

}  // namespace bn::search
