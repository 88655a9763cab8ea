#pragma once
// Zooming's way down a chain (seed 004 sec. 2.3): from a summary s, extend at one end step by
// step, reading each step's extension amounts, and build only the summary where the walk stops.
// A chain of D distinct methods passes summaries of every length up to D; built, each costs its
// length to intern and measure, O(D²) in all (10,000 deep: 8.8 s and 1.25 GB). A backend may keep
// the sequence reached in a form that each step only adds to; BuildingWalk, the default, builds
// every step: exact for every backend.

#include <string_view>
#include <vector>

#include "bn/iface/extension_amounts.h"
#include "bn/iface/summary.h"

namespace bn::iface {

class Profile;

class ExtensionWalk {
 public:
  virtual ~ExtensionWalk() = default;
  // What Profile::extension_amounts gives for the summary reached, at the walk's end.
  virtual std::vector<ExtensionAmounts> amounts() = 0;
  // Moves on to the summary reached extended by m. Throws bn::Error when m is not one of its
  // extensions.
  virtual void extend(std::string_view m) = 0;
  // The summary reached, built: what extending the start by each method in turn gives.
  virtual Summary summary() = 0;
};

// The default: every step built as a summary.
class BuildingWalk final : public ExtensionWalk {
 public:
  BuildingWalk(Profile& profile, Summary s, End end) : profile_(profile), reached_(s), end_(end) {}
  std::vector<ExtensionAmounts> amounts() override;
  void extend(std::string_view m) override;
  Summary summary() override { return reached_; }

 private:
  Profile& profile_;
  Summary reached_;
  End end_;
};

}  // namespace bn::iface
