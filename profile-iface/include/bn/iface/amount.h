#pragma once
// Exact costs. Every number the profile interface returns is an integer numerator over the
// profile's one common denominator (Profile::denominator()), so hot-path sums stay integer adds
// and nothing drifts (docs/architecture.md "Costs are exact"). Sample counts and nanoseconds have
// denominator 1; typed time (fractional hits, CPPROFJ sec. 5.2) and scaled comparisons do not.

#include <boost/multiprecision/cpp_int.hpp>
#include <string>

namespace bn::iface {

// Signed, so comparative profiles (A minus B) can go negative. 128 bits leave room for a
// denominator times a 64-bit cost.
using Amount = __int128;
using Rational = boost::multiprecision::cpp_rational;

Rational to_rational(Amount numerator, Amount denominator = 1);
// |a| without overflow surprises for the values we produce.
inline Amount abs_amount(Amount a) { return a < 0 ? -a : a; }

// Decimal text of an integer Amount ("-1234").
std::string to_string(Amount a);
// Exact text of numerator/denominator: "97", "-3/2". Reduced.
std::string exact_string(Amount numerator, Amount denominator = 1);
// Rounded decimal for display: "97", "-1.50" (`digits` after the point, only when not integral).
std::string decimal_string(Amount numerator, Amount denominator, int digits = 2);
// part / whole as a percentage rounded to `digits` decimals, computed exactly: "97.0%".
// A whole of zero gives "n/a".
std::string percent_string(Amount part, Amount whole, int digits = 1);

}  // namespace bn::iface
