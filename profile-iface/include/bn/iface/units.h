#pragma once
// Amounts as people read them. A profile counts nanoseconds, samples or calls exactly (amount.h),
// but "cum 60469348886" says nothing at a glance: text shows a duration in the unit that suits
// it ("12.3 ms", "2.50 min"), a count as the integer it is, a rate to three significant digits
// ("0.700 CPUs"). The REPL's tables and headers and the command-line tool print amounts
// through these functions, so a cost reads the same everywhere. JSON and `show` keep the exact
// amounts.
//
// Rounding: to three significant digits, halves away from zero, computed exactly from the
// rational. A duration takes the largest unit in which its rounded value is at least 1, so
// 999.4 ms is "999 ms" and 999.5 ms is "1.00 s" (never "1000 ms"); minutes and hours are not
// powers of ten of the unit below, so they start at 100 of it: "99.9 s", then "1.67 min".

#include <string>
#include <string_view>

#include "bn/iface/amount.h"
#include "bn/iface/metric_info.h"

namespace bn::iface {

enum class UnitKind {
  count,     // samples, calls, instances: "97", or "0.700" for a fractional count
  duration,  // nanoseconds and other times: "999 ns", "1.23 µs", "12.3 ms", "4.56 s", "2.50 min", "2.00 h"
  rate,      // a ratio of two amounts, such as CPUs busy on average: "0.700", "1.00", "12.3"
  bytes,     // "512 B", "1.50 KiB", "3.00 GiB"
};

// How the amounts of a metric are printed.
struct DisplayUnit {
  UnitKind kind = UnitKind::count;
  std::string
      name;  // the metric's unit ("ns", "samples", "calls", "CPUs"), printed after a count or a rate; may be empty
  Amount scale = 1;  // a duration: nanoseconds in one unit of the metric ("ms": 1000000)
};

// From a metric's name and unit (metric_info.h): "ns", "nanoseconds", "us", "ms", "s" and their
// long names are durations; "bytes" bytes; "CPUs" (the Server View: CPUs busy on average) and
// "lifetime" (a Thread View: the lifetime of an average thread) rates; everything else counts,
// named by its unit, or by the metric for pprof's unit "count" ("calls").
DisplayUnit display_unit(std::string_view metric, std::string_view unit);
inline DisplayUnit display_unit(const MetricInfo& m) { return display_unit(m.metric, m.unit); }

// One function per kind, each of numerator/denominator (amount.h). A zero denominator is "n/a".
// Nanoseconds: "0 s", "999 ns" (whole nanoseconds exactly), "1.00 µs", "-12.3 ms", "2.50 min".
std::string duration_text(Amount ns_numerator, Amount denominator);
// "97" and "-3" exactly; a fraction to three significant digits ("0.700", "44.7"), from 100 on
// to the nearest integer ("1235").
std::string count_text(Amount numerator, Amount denominator);
// Three significant digits: "0.700", "1.00", "-12.3", "1230"; zero is "0".
std::string rate_text(Amount numerator, Amount denominator);
// "512 B" exactly below 1 KiB, else three significant digits of KiB, MiB, GiB, TiB or PiB.
std::string bytes_text(Amount numerator, Amount denominator);

// An amount with its unit, by the unit's kind: "1.23 s", "97 samples", "0.700 CPUs".
std::string amount_text(Amount numerator, Amount denominator, const DisplayUnit& unit);
// The same in a table whose header names the unit once (unit_in_header): durations and bytes
// keep their unit, which changes from row to row; counts and rates print the number alone.
std::string cell_text(Amount numerator, Amount denominator, const DisplayUnit& unit);
// Whether cell_text leaves the unit to the table's header: a named count or rate.
bool unit_in_header(const DisplayUnit& unit);
// The exact amount in the metric's own unit, for `show` and wherever rounding would hide it:
// "60469348886 ns", "97 samples", "-3/2 CPUs" (reduced).
std::string exact_text(Amount numerator, Amount denominator, const DisplayUnit& unit);

}  // namespace bn::iface
