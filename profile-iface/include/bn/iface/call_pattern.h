#pragma once
// Call sequences with gaps and aspects (seed 000 sec. 2-3, read in this project's terms; see
// docs/aspects.md). Elements, outermost first:
//   a method      `Server.handle`   one frame of that method;
//   an aspect     `:io`             one frame of any method its pattern matches (a pseudo-method);
//   a gap         `..`              zero or more frames (the paper's extended call).
// Adjacent non-gap elements are consecutive frames. A measurement (a node's own cost) satisfies
// the sequence when its root-to-node stack contains a match anywhere; cum counts every such
// measurement once, base those whose own frame is the match of the last element. A sequence of
// methods only (plain) is the seed 004 summary the backends always had, measured as before.
//
// Rules a sequence must obey (check_call_pattern): not empty, no gap at either end or next to
// another gap, and no immediate call from one aspect to another (sec. 3: it only proliferates
// entries). With a gap or an aspect, at most kMaxPatternCalls other elements, so a matcher's
// state fits in 64 bits.

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bn/base/method_pattern.h"
#include "bn/iface/summary.h"

namespace bn::iface {

inline constexpr std::size_t kMaxPatternCalls = 64;
inline constexpr std::string_view kGapText = "..";

struct PatternElement {
  enum class Kind { method, aspect, gap };
  Kind kind = Kind::method;
  std::string name;                                    // the method, or the aspect without ':'; empty for a gap
  std::shared_ptr<const base::MethodPattern> pattern;  // an aspect's definition

  static PatternElement method(std::string_view name) { return {Kind::method, std::string(name), nullptr}; }
  static PatternElement gap() { return {Kind::gap, {}, nullptr}; }
  // How a path shows it: the method, ":name" or "..".
  std::string text() const;
};

struct CallPattern {
  std::vector<PatternElement> elements;

  // Methods only: a seed 004 call sequence.
  bool is_plain() const;
  // "Server.handle;..;:io", as a user types it.
  std::string text() const;
  // The text with each aspect's definition: two patterns with equal keys mean the same
  // (an aspect redefined under its old name gives a new key).
  std::string key() const;
  // Indexes of the gaps, in order.
  std::vector<std::size_t> gaps() const;
};

// Finds an aspect's definition by name (without ':'); nullptr when no aspect has that name.
using AspectLookup = std::function<std::shared_ptr<const base::MethodPattern>(std::string_view name)>;

// Parses "a;..;:io;b" (split like every call sequence, call_sequence_text.h; frames trimmed).
// ":name" is an aspect when `aspects` knows it and a method otherwise, so the typed-time
// pseudo-methods of the views (`:RUN`, ...) stay methods. Throws bn::Error naming the text and
// the rule broken.
CallPattern parse_call_pattern(std::string_view text, const AspectLookup& aspects);
// The same from frames already split (a label file's lines, path_of's elements).
CallPattern pattern_from_frames(std::span<const std::string_view> frames, const AspectLookup& aspects);
// Throws bn::Error when p breaks a rule listed at the top of this file.
void check_call_pattern(const CallPattern& p);

CallPattern plain_pattern(std::span<const std::string_view> methods);
// p with `method` added at one end, immediately (the 1-method extensions of seed 004 Fig. 3).
CallPattern extended(const CallPattern& p, End end, std::string_view method);
// P..x: the member x of the extended downward refinement of P (seed 000 sec. 2).
CallPattern extended_through_gap(const CallPattern& p, std::string_view method);
// P1..x P2 for P = P1..P2 split at the gap with index `gap`: the member x of the upward split
// refinement (seed 000 sec. 2). Throws bn::Error when elements[gap] is no gap.
CallPattern split_at(const CallPattern& p, std::size_t gap, std::string_view method);
// p without its element at `end`, and without the gap that would then end it; nullopt when
// nothing is left.
std::optional<CallPattern> trimmed(const CallPattern& p, End end);

}  // namespace bn::iface
