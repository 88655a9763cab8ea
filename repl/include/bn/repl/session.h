#pragma once
// The state of one BOTTLENECKS session (seed 004 sec. 2.3): the bookkeeping the tool does for
// the analyst. It knows only the profile interface, so every backend gets the same session;
// it neither parses commands nor prints.

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "bn/iface/profile.h"
#include "bn/repl/labels.h"
#include "bn/repl/settings.h"

namespace bn::repl {

class Session {
 public:
  explicit Session(iface::Profile& profile) : profile_(&profile) {}

  iface::Profile& profile() const { return *profile_; }
  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }
  LabelSet& labels() { return labels_; }
  const LabelSet& labels() const { return labels_; }

  // "BOTTLENECKS gives a number to every summary it prints": the summaries listed by the last
  // command that prints a list (suggest, select, labels, ...), numbered from 0 as in the
  // paper's `select 0`.
  void set_numbered(std::vector<iface::Summary> summaries) { numbered_ = std::move(summaries); }
  std::span<const iface::Summary> numbered() const { return numbered_; }
  // The summary numbered by `text`; throws bn::Error naming the valid range.
  iface::Summary numbered_summary(std::string_view text) const;

  // The current summary and the trail of summaries made current before it (for `back`).
  std::optional<iface::Summary> current() const;
  void make_current(iface::Summary s);
  // Returns to the previous current summary; false when there is none.
  bool back();
  std::span<const iface::Summary> trail() const { return trail_; }

  // Labels changed since the last save or load.
  bool labels_dirty() const { return labels_dirty_; }
  void set_labels_dirty(bool dirty) { labels_dirty_ = dirty; }

 private:
  iface::Profile* profile_;
  Settings settings_;
  LabelSet labels_;
  std::vector<iface::Summary> numbered_;
  std::vector<iface::Summary> trail_;
  bool labels_dirty_ = false;
};

}  // namespace bn::repl
