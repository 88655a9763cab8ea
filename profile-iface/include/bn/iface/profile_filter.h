#pragma once
// Pruning and focus (seed 000 sec. 7 names pruning as missing, pprof's focus/ignore
// and async-profiler's include/exclude are the filters users ask for most). A filter keeps or
// drops measurements (a node's own cost, every metric of it) by whether their stack satisfies a
// call sequence, with the satisfaction rules of call_pattern.h:
//   exclude SEQUENCE   drops every measurement whose stack satisfies SEQUENCE;
//   focus SEQUENCE     keeps only those.
// Filters never change a stack, so several filters keep what passes each of them, whatever
// their order. docs/aspects.md, "Filters", has an example.

#include <span>
#include <string>

#include "bn/iface/call_pattern.h"

namespace bn::iface {

struct ProfileFilter {
  enum class Kind { exclude, focus };
  Kind kind = Kind::exclude;
  CallPattern pattern;

  // "exclude Thread.sleep", "focus Server.handle;..;:io", as the REPL takes it.
  std::string text() const;
  // Does a measurement whose stack satisfies the pattern (or not) pass this filter?
  bool passes(bool satisfied) const { return kind == Kind::focus ? satisfied : !satisfied; }
};

// "exclude a, then focus b;..;c" for headers; "" for none.
std::string filters_text(std::span<const ProfileFilter> filters);

}  // namespace bn::iface
