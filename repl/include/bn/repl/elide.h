#pragma once
// Fitting text output to a width (`set width`, 80 columns by default): a call path keeps both
// ends, its outermost frames (where it starts) and its innermost (the method it is about), and
// says how many frames it leaves out; a name too long on its own keeps its head and tail. JSON
// and `show --full` always print every name in full.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace bn::repl {

// Columns `s` takes on a terminal: one per UTF-8 code point (wide characters count as one).
std::size_t columns(std::string_view s);
// `s` in at most `width` columns (at least 5): "org.exa...Foo.bar", cut on code points.
std::string elide_middle(std::string_view s, std::size_t width);
// "[a;b;c]" in about `width` columns (at least 40): the first and last frames kept and the
// frames between them left out as "<N frames>" ("[main;run;<12 frames>;parse;read]"), the
// innermost kept before the outermost. Names are what the user reads, so they are cut (by
// elide_middle) only when even the two ends do not fit, and never below 24 columns each, or 60
// for a path of one frame: such a path runs over `width`.
std::string fit_path(const std::vector<std::string>& frames, std::size_t width);

}  // namespace bn::repl
