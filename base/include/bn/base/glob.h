#pragma once
// Wildcard matching, where '*' matches any run of characters (dots and all) and every other
// character only itself: the REPL's method globs and the recorder's class filters
// (include=/exclude=). Header only, so the agent, which links no analyzer code, shares it.

#include <cstddef>
#include <string_view>

namespace bn::base {

// True if `name` matches `pattern`. Iterative with one backtrack point (the last '*'): linear
// in practice, never exponential.
inline bool glob_match(std::string_view pattern, std::string_view name) {
  std::size_t p = 0, n = 0, star = std::string_view::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] != '*' && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace bn::base
