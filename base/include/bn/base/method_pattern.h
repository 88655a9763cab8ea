#pragma once
// The pattern that defines an aspect (seed 000 sec. 3): a pseudo-method stands for every true
// method whose name matches. Examples of the paper are `C.*` (every method of class C) and
// `*.debug*`. Written as a glob (glob.h) by default, with alternatives separated by '|'
// (`java.io.*|java.nio.*`); a pattern that starts with `re:` is an ECMAScript regular
// expression instead (`re:java\.(io|nio)\..*`). Either must match the whole name.

#include <memory>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace bn::base {

class MethodPattern {
 public:
  // Throws bn::Error naming the pattern and what is wrong (empty, an empty alternative, a
  // regular expression that does not compile).
  explicit MethodPattern(std::string_view text);

  bool matches(std::string_view method) const;
  // The pattern as the user wrote it, `re:` included.
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::vector<std::string> globs_;           // alternatives, when a glob
  std::shared_ptr<const std::regex> regex_;  // when `re:`
};

}  // namespace bn::base
