#pragma once
// Fitting text output to a width (`set width`, 80 columns by default): a call path keeps both
// ends, its outermost frames (where it starts) and its innermost (the method it is about), and
// says how many frames it leaves out; a name too long keeps its `Class.method`
// (bn/iface/name_fit.h); prose wraps at blanks. JSON and `show --full` always print every name
// in full.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bn/iface/name_fit.h"

namespace bn::repl {

using iface::columns;

// "[a;b;c]" in about `width` columns (at least 24): the first and last frames kept and the
// frames between them left out as "<N frames>" ("[main;run;<12 frames>;parse;read]"), the
// innermost kept before the outermost. Names are shortened (elide_name) only when even the two
// ends do not fit, the innermost last, never below 12 columns each; narrower still, only the
// innermost is kept ("[<5 frames>;…XNodeSet.compare]").
std::string fit_path(const std::vector<std::string>& frames, std::size_t width);

// `text` wrapped at blanks into lines of at most `width` columns (0: no limit), each line after
// the first indented by the first's leading blanks plus `hang`. A word longer than a line is
// kept whole on a line of its own.
std::string wrap(std::string_view text, std::size_t width, std::size_t hang = 2);

}  // namespace bn::repl
