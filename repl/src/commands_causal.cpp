// `causal` (docs/causal.md): the causal profile of the recordings searched. The session's source
// reads the experiments and analyses them (search/causal_report.h); this only picks the progress
// point and the target whose curve is shown.

#include <algorithm>

#include "bn/base/error.h"
#include "bn/search/text.h"
#include "handlers.h"

namespace bn::repl::handlers {
namespace {

constexpr std::string_view kProgressOption = "--progress";

// "a ; b;c" as the calls of a sequence: "a", "b", "c".
std::vector<std::string> calls_of(std::string_view typed) {
  std::vector<std::string> calls;
  std::size_t from = 0;
  for (std::size_t semi = typed.find(';');; semi = typed.find(';', from)) {
    calls.emplace_back(search::trim(typed.substr(from, semi - from)));
    if (semi == std::string_view::npos) return calls;
    from = semi + 1;
  }
}

// The target `typed` names: a number of the ranked list, a label's name, or a sequence equal to
// a target's (a label's one summary, or a target that is no label).
std::size_t target_of(const search::CausalReport& report, std::string_view typed) {
  const std::vector<search::CausalTargetLine>& targets = report.targets;
  if (!typed.empty() && std::all_of(typed.begin(), typed.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
    const std::size_t n = typed.size() > 9 ? 0 : std::stoul(std::string(typed));
    if (n < 1 || n > targets.size())
      throw Error("no target " + std::string(typed) + ": `causal` lists " + std::to_string(targets.size()));
    return n - 1;
  }
  for (std::size_t i = 0; i < targets.size(); ++i)
    if (targets[i].is_label && targets[i].name == typed) return i;
  const std::vector<std::string> calls = calls_of(typed);
  for (std::size_t i = 0; i < targets.size(); ++i)
    if (targets[i].summaries.size() == 1 && targets[i].summaries.front() == calls) return i;
  throw Error("no causal target '" + std::string(typed) + "': `causal` lists them (a number, a label or a sequence)");
}

}  // namespace

Output causal(Context& c, const Arguments& args) {
  std::string_view typed = search::trim(args[0].text);
  std::string_view progress;
  if (const auto [first, rest] = search::split_word(typed); first == kProgressOption) {
    std::tie(progress, typed) = search::split_word(rest);
    if (progress.empty()) throw Error("usage: causal --progress NAME [N|LABEL|m1;m2;...]");
    typed = search::trim(typed);
  }
  search::ProfileSource* source = c.session().source();
  if (!source) throw Error(std::string(search::kNoCausalExperiments));
  CausalOutput out{source->causal(progress), std::nullopt};
  if (!typed.empty()) out.target = target_of(out.report, typed);
  return out;
}

}  // namespace bn::repl::handlers
