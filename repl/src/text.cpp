#include "bn/repl/text.h"

namespace bn::repl {
namespace {

bool is_line_end(char c) { return c == '\r' || c == '\n'; }

char fold(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (is_blank(s.front()) || is_line_end(s.front()))) s.remove_prefix(1);
  while (!s.empty() && (is_blank(s.back()) || is_line_end(s.back()))) s.remove_suffix(1);
  return s;
}

std::pair<std::string_view, std::string_view> split_word(std::string_view s) {
  s = trim(s);
  std::size_t end = 0;
  while (end < s.size() && !is_blank(s[end])) ++end;
  return {s.substr(0, end), trim(s.substr(end))};
}

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> words;
  for (std::string_view rest = s;;) {
    const auto [word, after] = split_word(rest);
    if (word.empty()) return words;
    words.push_back(word);
    rest = after;
  }
}

std::string_view unquote(std::string_view s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
    return s.substr(1, s.size() - 2);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = fold(c);
  return out;
}

bool equals_nocase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (fold(a[i]) != fold(b[i])) return false;
  return true;
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && equals_nocase(s.substr(0, prefix.size()), prefix);
}

}  // namespace bn::repl
