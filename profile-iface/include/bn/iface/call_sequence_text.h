#pragma once
// A call sequence written as text, "a;b;c" outermost first: how collapsed stacks store stacks and
// how users type them (`path`). Both split it the same way, at each ';' outside parentheses, so a
// JVM signature "Foo.bar(Ljava/lang/String;I)V" stays one frame. Text whose parentheses do not
// balance is split at every ';', so one stray '(' cannot swallow the rest of a stack.

#include <cstddef>
#include <string_view>

namespace bn::iface {

// Calls f(frame) for each frame of `text`, in order, untrimmed; an empty text is one empty frame.
template <class F>
void for_each_frame(std::string_view text, F&& f) {
  bool balanced = true;
  if (text.find('(') != std::string_view::npos) {
    int depth = 0;
    for (const char c : text) {
      if (c == '(') ++depth;
      if (c == ')' && --depth < 0) break;
    }
    balanced = depth == 0;
  }
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (balanced && c == '(') ++depth;
    if (balanced && c == ')') --depth;
    if (c == ';' && depth == 0) {
      f(text.substr(start, i - start));
      start = i + 1;
    }
  }
  f(text.substr(start));
}

}  // namespace bn::iface
