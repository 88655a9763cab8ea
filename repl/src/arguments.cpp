#include "bn/repl/arguments.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <utility>

#include "bn/repl/commands.h"
#include "bn/repl/dispatch.h"
#include "bn/search/text.h"

namespace bn::repl {
namespace {

// Placeholders are written in capitals ("N", "CLASS"); keywords are not ("on", "HighCum", "=").
bool is_placeholder(std::string_view w) {
  return !w.empty() && w.front() >= 'A' && w.front() <= 'Z' &&
         std::none_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// "cpus N": the word after the keyword is the placeholder's.
bool takes_word(const Alternative& a) { return !a.keyword.empty() && !a.placeholder.empty(); }

// The alternative that `typed` names: one whose keyword it is, else the bare placeholder.
std::optional<std::size_t> find_alternative(const std::vector<Alternative>& alternatives, std::string_view typed) {
  for (std::size_t i = 0; i < alternatives.size(); ++i)
    if (!alternatives[i].keyword.empty() && search::equals_nocase(alternatives[i].keyword, typed)) return i;
  for (std::size_t i = 0; i < alternatives.size(); ++i)
    if (alternatives[i].keyword.empty()) return i;
  return std::nullopt;
}

// "bad view 'sever': expected tree/server/thread; did you mean 'server'?" (a choice that has a
// bare placeholder takes any word, so every alternative here has a keyword).
Error bad_choice(const Arg& arg, std::string_view typed) {
  std::string expected;
  std::vector<std::string_view> keywords;
  for (const Alternative& a : alternatives(arg)) {
    expected += (expected.empty() ? "" : "/") + std::string(a.keyword);
    keywords.push_back(a.keyword);
  }
  const std::string_view guess = closest_match(typed, keywords);
  return Error("bad " + std::string(arg.what) + " '" + std::string(typed) + "': expected " + expected +
               (guess.empty() ? "" : "; did you mean '" + std::string(guess) + "'?"));
}

}  // namespace

std::string usage_text(const ArgSpec& spec) {
  std::string out;
  for (const Arg& arg : spec) {
    if (arg.kind == ArgKind::kNone) break;
    if (!out.empty()) out += ' ';
    out += arg.optional ? "[" + std::string(arg.usage) + "]" : std::string(arg.usage);
  }
  return out;
}

std::vector<Alternative> alternatives(const Arg& choice) {
  std::vector<Alternative> out;
  for (std::string_view rest = choice.usage;;) {
    const std::size_t bar = rest.find('|');
    const auto [first, second] = search::split_word(rest.substr(0, bar));
    out.push_back(is_placeholder(first) ? Alternative{{}, first} : Alternative{first, second});
    if (bar == std::string_view::npos) return out;
    rest.remove_prefix(bar + 1);
  }
}

Error Arguments::usage_error(std::size_t index) const {
  const std::string args = usage_text(command_->args);
  std::string message = "usage: " + std::string(command_->name) + (args.empty() ? "" : " " + args);
  if (index < kMaxArgs) {
    const Arg& arg = command_->args[index];
    if (arg.kind != ArgKind::kChoice && !arg.what.empty()) message += " (" + std::string(arg.what) + ")";
  }
  return Error(message);
}

Arguments match_arguments(const Command& command, std::string_view typed) {
  Arguments out(command);
  std::optional<Error> wrong_choice;  // reported only once the words are counted right
  std::string_view rest = search::trim(typed);
  for (std::size_t i = 0; i < kMaxArgs && command.args[i].kind != ArgKind::kNone; ++i) {
    const Arg& arg = command.args[i];
    ArgValue& value = out.values_[i];
    if (rest.empty()) {
      if (arg.optional) break;
      throw out.usage_error(i);
    }
    if (arg.kind == ArgKind::kText) {
      value.text = std::exchange(rest, {});
      continue;
    }
    std::tie(value.text, rest) = search::split_word(rest);
    if (arg.kind != ArgKind::kChoice) continue;
    const std::vector<Alternative> options = alternatives(arg);
    const std::optional<std::size_t> found = find_alternative(options, value.text);
    if (!found) {
      if (!wrong_choice) wrong_choice = arg.what.empty() ? out.usage_error(i) : bad_choice(arg, value.text);
      continue;
    }
    value.keyword = options[*found].keyword;
    if (!takes_word(options[*found])) continue;
    if (rest.empty()) throw out.usage_error(i);
    std::tie(value.param, rest) = search::split_word(rest);
  }
  if (!rest.empty()) throw out.usage_error(kMaxArgs);
  if (wrong_choice) throw *wrong_choice;
  return out;
}

const Arg* next_arg(const Command& command, const std::vector<std::string_view>& words) {
  std::size_t done = 0;
  for (const Arg& arg : command.args) {
    if (arg.kind == ArgKind::kNone) return nullptr;
    if (arg.kind == ArgKind::kText || done == words.size()) return &arg;
    if (arg.kind == ArgKind::kChoice) {
      const std::vector<Alternative> options = alternatives(arg);
      const std::optional<std::size_t> found = find_alternative(options, words[done]);
      if (found && takes_word(options[*found]) && ++done == words.size()) return nullptr;
    }
    ++done;
  }
  return nullptr;
}

}  // namespace bn::repl
