#pragma once
// total_cum_of of a growing set of 1-method extensions of one summary s, all at one end, each
// named as Profile::extension_amounts(s, end) lists it. Zooming (seed 004 sec. 2.3) asks it for
// every prefix of a neighbourhood of up to 10^5 extensions sorted by |cum|, so a backend may keep
// the union over its own measurements, without building the extensions as summaries. This
// default builds each added extension and asks total_cum_of of all of them: exact for every
// backend, quadratic in the number added.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bn/iface/amount.h"
#include "bn/iface/extension_amounts.h"
#include "bn/iface/summary.h"

namespace bn::iface {

class Profile;

class ExtensionUnion {
 public:
  ExtensionUnion(Profile& profile, Summary s, End end)
      : profile_(profile), s_(s), end_(end), kind_(std::string(to_string(end)) + " extension") {}
  virtual ~ExtensionUnion() = default;
  // Adds an extension of s as extension_amounts(s, end) listed it. Adding one twice changes
  // nothing. Throws bn::Error when e is not an extension of s at this end.
  virtual void add(const ExtensionAmounts& e);
  // total_cum_of of every extension added so far (0 for none).
  virtual Amount total();
  // For a profile whose costs are never negative: an upper bound on total() once every
  // extension of s at this end is added, if the backend knows one cheaply (nullopt by default).
  // Zooming then gives up at once on a neighbourhood that cannot reach its cutoff, instead of
  // adding all of it to find out.
  virtual std::optional<Amount> bound_of_all() { return std::nullopt; }

 protected:
  // A union of other one-method refinements of s, named `kind` in errors.
  ExtensionUnion(Profile& profile, Summary s, std::string kind) : profile_(profile), s_(s), kind_(std::move(kind)) {}
  // Throws the bn::Error add() promises for a name that is no extension.
  [[noreturn]] void reject(std::string_view m) const;
  // The refinement of s named m, built: the default add() unites these.
  virtual std::optional<Summary> built(std::string_view m);

 private:
  Profile& profile_;
  Summary s_;
  End end_ = End::top;
  std::string kind_;
  std::vector<Summary> added_;
};

// A running union over other one-method refinements of s, each added one built by `build` and
// united by total_cum_of: the default of Profile::gap_extension_union and split_union.
class BuiltRefinementUnion final : public ExtensionUnion {
 public:
  using Build = std::function<std::optional<Summary>(std::string_view)>;
  BuiltRefinementUnion(Profile& profile, Summary s, std::string kind, Build build)
      : ExtensionUnion(profile, s, std::move(kind)), build_(std::move(build)) {}

 private:
  std::optional<Summary> built(std::string_view m) override { return build_(m); }
  Build build_;
};

}  // namespace bn::iface
