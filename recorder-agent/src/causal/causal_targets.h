#pragma once
// What the experiments of mode=causal speed up (seed 003; the unit is a summary of seed 004, not
// a source line as in Coz): `target=SEQ` (a call sequence in the REPL's syntax, `;` between
// elements, outermost first; repeatable) or `targets=FILE` (a label file the REPL saved: each
// label is one target, all its summaries together). An element is a method's full name, the gap
// `..` or an aspect `:NAME` the file defines (`aspect NAME = PATTERN`). A sample counts toward a
// target when its stack satisfies one of the target's sequences (docs/aspects.md: adjacent
// elements are consecutive frames, a gap is any number of frames, and the match may start and
// end anywhere in the stack) — the samples that would count toward the target's cum.
//
// Matching runs in the signal handler, so targets are compiled once, at start, into symbols:
// each distinct method name or aspect of every target is one bit, and a method's bits say
// which symbols it is (method_symbols.h); an element is a symbol or a gap.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bn/agent/status.h"
#include "bn/base/method_pattern.h"
#include "bn/calltree/causal_data.h"

namespace bn::agent {

// One bit per symbol: at most this many distinct names and aspects over all targets.
inline constexpr std::size_t kMaxSymbols = 64;

struct Symbol {
  std::string name;                                    // a method's full name, or ":ASPECT"
  std::shared_ptr<const base::MethodPattern> pattern;  // an aspect's; null for a method
  bool matches(const std::string& method) const { return pattern ? pattern->matches(method) : method == name; }
};

struct CompiledElement {
  bool gap = false;
  std::uint8_t symbol = 0;  // when not a gap
};
using CompiledSummary = std::vector<CompiledElement>;

struct CausalTargets {
  std::vector<calltree::CausalTarget> targets;  // as the profile records them
  std::vector<std::pair<std::string, std::string>> aspects;
  std::vector<Symbol> symbols;
  std::vector<std::vector<CompiledSummary>> compiled;  // per target, per summary
  Status status;  // not ok: one line naming the option or FILE:LINE and what is wrong
};

// From target= values and a targets= file (either may be empty).
CausalTargets read_causal_targets(const std::vector<std::string>& sequences, const std::string& labels_file);

// Targets made of single methods (the default targets found by a warm-up).
CausalTargets method_targets(const std::vector<std::string>& methods);

}  // namespace bn::agent
