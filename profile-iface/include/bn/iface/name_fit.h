#pragma once
// Method names in few columns, one rule for the REPL's rows, paths and tables. What a reader
// needs from `org.apache.xpath.objects.XNodeSet.compare` is
// its `Class.method`: packages are shortened first, outermost first, to their first letter
// (`o.a.x.o.XNodeSet.compare`), then left out (`…XNodeSet.compare`); only a `Class.method` too
// long on its own is cut in the middle (`XNodeSet.co…are`), so the class is never dropped
// while a package is kept.

#include <cstddef>
#include <string>
#include <string_view>

namespace bn::iface {

// The fewest columns a name is fitted in: "…" and two characters either side of it. A narrower
// space (a thin flame graph frame) shows no text rather than less.
inline constexpr std::size_t kMinNameColumns = 5;

// Columns `s` takes on a terminal: one per UTF-8 code point (wide characters count as one).
std::size_t columns(std::string_view s);
// `s` in at most `width` columns (at least kMinNameColumns): head and tail kept around "…", cut on code points.
std::string elide_middle(std::string_view s, std::size_t width);
// A name in at most `width` columns (at least kMinNameColumns) by the rule above. `kept` is how many of its
// last dot-separated parts are never shortened: 2 for a method (`Class.method`), 1 for a class.
// Dots inside a signature's parentheses do not separate parts; a prefix before the first part's
// letters (`@` of an aspect) stays with its first letter (`@j.l.String.getBytes`).
std::string elide_name(std::string_view name, std::size_t width, std::size_t kept = 2);

}  // namespace bn::iface
