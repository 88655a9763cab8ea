#pragma once
// Method names as the user types and reads them: short display names (seed 004 Fig. 1 prints
// `Class.method` without the package), and resolution of what `path` receives — exact names,
// unambiguous prefixes and `*` globs — against the methods of the profile.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bn/iface/profile.h"
#include "bn/search/aspects.h"
#include "bn/search/settings.h"

namespace bn::search {

// "java.lang.SecurityManager.getClassContext" -> "SecurityManager.getClassContext"; names with
// fewer than two dots are returned unchanged. A signature suffix "(...)" is kept but not split.
// A view's pseudo-nodes: ":THREAD java.lang.Thread" stays whole, "@a.b.C.m" becomes "@C.m".
std::string short_name(std::string_view full);
std::string display_name(std::string_view full, NameStyle style);
// "[a;b;c]" in the given style.
std::string display_path(const std::vector<std::string_view>& path, NameStyle style);

// Splits "a;b;c" on ';' outside parentheses (JVM signatures contain ';'), trimming blanks.
std::vector<std::string> split_call_sequence(std::string_view text);

class MethodIndex {
 public:
  // Lists the profile's methods only when first needed: an exact full name is asked of the
  // profile, whose list of every method may take a pass over the whole profile (a first `path`
  // at 10M nodes would pay it for one name).
  explicit MethodIndex(iface::Profile& profile) : profile_(&profile) {}

  // The one method `typed` denotes: an exact full or short name, else the one name of which it is
  // a prefix ending at a name component ("Helper0" of "Helper0.op0", not "Help"), or for a pattern
  // with '*' the one name it matches. A signature may be typed with ';' inside its parentheses.
  // Throws bn::Error listing candidates when none or several match (a prefix that stops inside a
  // word is offered as "did you mean").
  std::string_view resolve(std::string_view typed) const;
  // Full names starting with `prefix` (also matched on short names), sorted.
  std::vector<std::string_view> complete(std::string_view prefix) const;
  // Every method of the profile, sorted.
  const std::vector<std::string_view>& names() const;

 private:
  iface::Profile* profile_;
  mutable std::optional<std::vector<std::string_view>> names_;  // names(), made on first use
};

// Why a call sequence of full names has no root: "method x does not occur in this profile" or
// "[a;b] never calls d" for the longest prefix that has one.
std::string why_no_root(iface::Profile& profile, const std::vector<std::string_view>& calls);

// The summary for a typed call sequence; throws bn::Error when a name does not resolve or the
// sequence has no root, naming the longest prefix that has one and its bottom extensions. The
// sequence may hold gaps ".." and aspects ":NAME" of `aspects` (seed 000 sec. 2-3). A `:NAME`
// that is no aspect and no method is said to be typed time the profile has none of when it is
// one of `typed_time` (ProfileSource::typed_time), else an unknown name; an aspect that matches
// no method of the profile is said to be one.
iface::Summary resolve_call_sequence(iface::Profile& profile, const MethodIndex& methods, std::string_view text,
                                     const AspectTable& aspects, std::span<const std::string> typed_time = {});

}  // namespace bn::search
