// The default ExtensionUnion: every added extension built as a summary, the union asked of
// total_cum_of, so a backend without a faster way still zooms exactly (seed 004 sec. 2.3).
#include <string>

#include "bn/iface/error.h"
#include "bn/iface/profile.h"

namespace bn::iface {

void ExtensionUnion::add(const ExtensionAmounts& e) {
  const auto t = top_ ? profile_.extend_top(s_, e.method) : profile_.extend_bottom(s_, e.method);
  if (!t) reject(e.method);
  added_.push_back(*t);  // total_cum_of counts a set: a repeat adds nothing
}

void ExtensionUnion::reject(std::string_view m) const {
  throw Error("'" + std::string(m) + "' is not a " + (top_ ? "top" : "bottom") + " extension of the summary");
}

Amount ExtensionUnion::total() { return profile_.total_cum_of(added_); }

}  // namespace bn::iface
