#include "bn/base/method_pattern.h"

#include "bn/base/error.h"
#include "bn/base/glob.h"

namespace bn::base {
namespace {

constexpr std::string_view kRegexPrefix = "re:";

}  // namespace

MethodPattern::MethodPattern(std::string_view text) : text_(text) {
  if (text.empty()) throw Error("empty method pattern");
  if (text.starts_with(kRegexPrefix)) {
    const std::string expression(text.substr(kRegexPrefix.size()));
    if (expression.empty()) throw Error("method pattern '" + text_ + "': empty regular expression");
    try {
      regex_ = std::make_shared<const std::regex>(expression, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& e) {
      throw Error("method pattern '" + text_ + "': not a regular expression (" + e.what() + ")");
    }
    return;
  }
  std::size_t start = 0;
  for (;;) {
    const std::size_t bar = text.find('|', start);
    const std::string_view alternative = text.substr(start, bar == std::string_view::npos ? bar : bar - start);
    if (alternative.empty()) throw Error("method pattern '" + text_ + "': empty alternative around '|'");
    globs_.emplace_back(alternative);
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
}

bool MethodPattern::matches(std::string_view method) const {
  if (regex_) return std::regex_match(method.begin(), method.end(), *regex_);
  for (const std::string& glob : globs_)
    if (base::glob_match(glob, method)) return true;
  return false;
}

}  // namespace bn::base
