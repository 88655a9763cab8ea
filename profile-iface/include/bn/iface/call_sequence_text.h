#pragma once
// A call sequence written as text, "a;b;c" outermost first: how collapsed stacks store stacks and
// how users type them (`path`). Both split it the same way, at each ';' outside parentheses, so a
// JVM signature "Foo.bar(Ljava/lang/String;I)V" stays one frame. Text whose parentheses do not
// balance is split at every ';', so one stray '(' cannot swallow the rest of a stack.

#include <cstddef>
#include <string_view>

namespace bn::iface {

// True when the parentheses of `text` balance, so that ';' inside them belong to a frame.
inline bool parentheses_balance(std::string_view text) {
  if (text.find('(') == std::string_view::npos && text.find(')') == std::string_view::npos) return true;
  int depth = 0;
  for (const char c : text) {
    if (c == '(') ++depth;
    if (c == ')' && --depth < 0) return false;
  }
  return depth == 0;
}

// Calls f(frame) for each frame of text[start..], in order, untrimmed. `start` is 0 or just past a
// separator of a split of the whole text with the same `balanced` (parentheses_balance(text)).
template <class F>
void for_each_frame_from(std::string_view text, std::size_t start, bool balanced, F&& f) {
  int depth = 0;
  for (std::size_t i = start; i < text.size(); ++i) {
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

// Calls f(frame) for each frame of `text`, in order, untrimmed; an empty text is one empty frame.
template <class F>
void for_each_frame(std::string_view text, F&& f) {
  for_each_frame_from(text, 0, parentheses_balance(text), f);
}

}  // namespace bn::iface
