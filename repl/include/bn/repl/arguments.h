#pragma once
// The arguments of a command as its row of the command table declares them (commands.h). The
// dispatcher matches what was typed against the declaration before the handler runs, and help and
// usage errors print the same declaration, so no handler counts words or repeats its usage.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bn/base/error.h"

namespace bn::repl {

// How an argument is completed at the terminal (a choice completes its keywords).
enum class ArgCompletion {
  kNone,
  kLabels,
  kMethods,  // a call sequence: complete the method after the last ';'
  kFiles,
  kCommands,
  kMetrics,  // the metrics of the profile (ProfileSource::metrics)
};

enum class ArgKind {
  kNone,  // fills the unused places of a row
  kWord,  // one blank-free word: "N", "CLASS"
  kText,  // the rest of the line, blanks and all, so it comes last: "m1;m2;...", "NAME", "FILE"
  // One of the '|'-separated alternatives, each a keyword ("on"), a keyword with a placeholder
  // for the word after it ("cpus N"), or a bare placeholder that takes any other word ("N" in
  // "N|all"). Keywords match whole and in any case; a placeholder is in capitals ("N", "CLASS").
  kChoice,
};

struct Arg {
  ArgKind kind = ArgKind::kNone;
  std::string_view usage;  // as help shows it: "N", "on|off", "paper|cpus N|measured"
  bool optional = false;   // may be left out, with every argument after it; shown as "[N]"
  ArgCompletion completion = ArgCompletion::kNone;
  // A choice: its name in "bad WHAT 'x': expected on/off" (none: a typo is a usage error).
  // Otherwise: what a usage error adds about it, as in "usage: label NAME (a non-empty name)".
  std::string_view what;
  // A choice among the kinds of view of the session's source (search::ViewKind), which the
  // tool's view table lists and the REPL cannot see: Context::row() spells them out as `usage`
  // ("tree|server|thread CLASS"). Without a source `usage` stays a bare placeholder, so any word
  // reaches the handler, which says there are no views.
  bool source_views = false;
};

constexpr Arg word(std::string_view usage, ArgCompletion completion = ArgCompletion::kNone) {
  return {ArgKind::kWord, usage, false, completion, {}};
}
constexpr Arg text(std::string_view usage, ArgCompletion completion = ArgCompletion::kNone,
                   std::string_view what = {}) {
  return {ArgKind::kText, usage, false, completion, what};
}
constexpr Arg choice(std::string_view alternatives, std::string_view what = {}) {
  return {ArgKind::kChoice, alternatives, false, ArgCompletion::kNone, what};
}
constexpr Arg view_choice(std::string_view what) {
  return {ArgKind::kChoice, "VIEW", false, ArgCompletion::kNone, what, true};
}
constexpr Arg optional(Arg arg) {
  arg.optional = true;
  return arg;
}

// Enough for every command so far and those planned ("aspect NAME = PATTERN").
inline constexpr std::size_t kMaxArgs = 3;
using ArgSpec = std::array<Arg, kMaxArgs>;

// The arguments as help and usage errors show them: "[N]", "NAME = PATTERN", "" for none.
std::string usage_text(const ArgSpec& spec);

// One alternative of a choice: "cpus N" has keyword "cpus" and placeholder "N"; a bare
// placeholder ("N" of "N|all") has no keyword.
struct Alternative {
  std::string_view keyword;
  std::string_view placeholder;
};
std::vector<Alternative> alternatives(const Arg& choice);

// What was typed for one Arg.
struct ArgValue {
  std::string_view text;  // the word or text; empty when an optional argument was left out
  // A choice: the keyword of the alternative typed, as the row spells it ("HighCum" for
  // "highcum"), so that handlers compare words and the row's order means nothing to them; empty
  // for a bare placeholder ("12" for "N|all").
  std::string_view keyword;
  std::string_view param;  // a choice: the word after an alternative with a placeholder
};

struct Command;

// The arguments of one command line, matched against its row: a value for each Arg, in order.
class Arguments {
 public:
  explicit Arguments(const Command& command) : command_(&command) {}
  const ArgValue& operator[](std::size_t index) const { return values_.at(index); }
  // The error for argument `index` being missing or malformed, or for too many words when it is
  // past the last one: "usage: label NAME (a non-empty name)".
  Error usage_error(std::size_t index) const;

 private:
  friend Arguments match_arguments(const Command& command, std::string_view typed);

  const Command* command_;
  std::array<ArgValue, kMaxArgs> values_{};
};

// Matches `typed` (what follows the command's name) against the row's arguments. Throws the usage
// error for missing or extra words, and then "bad WHAT 'x': expected a/b" for a choice typed wrong.
Arguments match_arguments(const Command& command, std::string_view typed);

// The argument that the next word would fill after `words`, the complete words typed after the
// command's name (for tab completion); null past the last one and for a choice's placeholder.
const Arg* next_arg(const Command& command, const std::vector<std::string_view>& words);

}  // namespace bn::repl
