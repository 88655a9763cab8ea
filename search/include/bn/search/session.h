#pragma once
// The state of one BOTTLENECKS session (seed 004 sec. 2.3): the bookkeeping the tool does for
// the analyst. It knows only the profile interface, so every backend gets the same session;
// it neither parses commands nor prints.

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bn/iface/profile.h"
#include "bn/search/aspects.h"
#include "bn/search/label_file.h"
#include "bn/search/label_measures.h"
#include "bn/search/labels.h"
#include "bn/search/listing.h"
#include "bn/search/profile_source.h"
#include "bn/search/settings.h"

namespace bn::search {

class Session {
 public:
  // A session on one profile.
  explicit Session(iface::Profile& profile) : profile_(&profile) {}
  // A session on whatever profile `source` has in force (views of one recording); commands that
  // switch it call switched().
  explicit Session(ProfileSource& source) : profile_(&source.profile()), source_(&source) {}

  iface::Profile& profile() const { return *profile_; }
  // The source, or null for a session on one profile.
  ProfileSource* source() const { return source_; }
  // The view whose labels the session holds: the source's, "tree" for one profile.
  std::string view() const { return source_ ? source_->view() : "tree"; }

  // After the source switched from view `left`, whose labels (as call sequences, taken before the
  // switch) are `left_labels`: the session follows the new profile, forgets its numbering, current
  // summary and trail, keeps `left`'s labels for a return, and brings back those kept for the view
  // now in force (the same one when only the model or the filters changed). Returns those that do
  // not resolve in the new profile, with the reason: they stay set aside for the view, and come
  // back at the next switch in which they resolve (after `unfilter`, say).
  std::vector<std::pair<SavedLabel, std::string>> switched(const std::string& left,
                                                           std::vector<SavedLabel> left_labels);
  // Labels kept for views other than the one in force, and those set aside for the view in force,
  // by view.
  const std::map<std::string, std::vector<SavedLabel>>& kept_labels() const { return kept_; }
  // The labels of the view in force as `save` writes them: those in force, then those set aside,
  // with the aspects they use.
  LabelFile label_file() const;
  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }
  AspectTable& aspects() { return aspects_; }
  const AspectTable& aspects() const { return aspects_; }
  LabelSet& labels() { return labels_; }
  const LabelSet& labels() const { return labels_; }
  // The labels' sets as the profile in force measures them.
  iface::SummarySet& label_set(const std::string& label) { return measures_.of(*profile_, labels_, label); }
  // The overlap of s with each label, in the order of labels().all().
  std::vector<iface::Overlap> label_overlaps(iface::Summary s) { return measures_.with(*profile_, labels_, s); }
  // Every pair of labels whose sets overlap, by name.
  const std::vector<LabelMeasures::LabelPair>& label_pairs() { return measures_.pairs(*profile_, labels_); }
  iface::SummarySet& all_labelled() { return measures_.all(*profile_, labels_); }

  // "BOTTLENECKS gives a number to every summary it prints": the summaries listed by the last
  // command that prints a list (suggest, select, labels, ...), numbered from 0 as in the
  // paper's `select 0`.
  void set_numbered(std::vector<iface::Summary> summaries) { numbered_.assign(1, {std::move(summaries), nullptr}); }
  // A list numbered in parts, each its summaries or a listing built as it is printed (listing.h).
  struct NumberedPart {
    std::vector<iface::Summary> summaries;
    std::shared_ptr<Listing> listing;
  };
  void set_numbered(std::vector<NumberedPart> parts) { numbered_ = std::move(parts); }
  // The summary numbered by `text`; throws bn::Error naming the valid range.
  iface::Summary numbered_summary(std::string_view text) const;

  // The current summary and the trail of summaries made current before it (for `back`).
  std::optional<iface::Summary> current() const;
  void make_current(iface::Summary s);
  // After a failed attempt to make another summary current (`path` with a typo): none is current,
  // so that what follows (`label`) cannot act on the summary the user meant to leave; the trail
  // stays and `back` returns to it.
  void withdraw_current();
  // Returns to the previous current summary (after withdraw_current, to the one withdrawn); false
  // when there is none.
  bool back();
  std::span<const iface::Summary> trail() const { return trail_; }

  // The labels the last `autolabel` added, as (label, summary), so `autolabel undo` takes them all
  // off in one command. Emptied by that undo and when the view changes.
  std::vector<std::pair<std::string, iface::Summary>>& autolabelled() { return autolabelled_; }

  // Labels of the view in force changed since the last save or load.
  bool labels_dirty() const { return labels_dirty_; }
  void set_labels_dirty(bool dirty) { labels_dirty_ = dirty; }
  // Those, or the kept labels of another view.
  bool any_labels_dirty() const { return labels_dirty_ || !dirty_views_.empty(); }
  // The views other than the one in force whose kept labels changed since the last save.
  std::vector<std::string> dirty_kept_views() const;

 private:
  iface::Profile* profile_;
  ProfileSource* source_ = nullptr;
  std::map<std::string, std::vector<SavedLabel>> kept_;
  std::map<std::string, bool> dirty_views_;  // kept views whose labels changed since a save
  Settings settings_;
  LabelSet labels_;
  LabelMeasures measures_;
  AspectTable aspects_;  // kept across views: the patterns name methods, not nodes
  std::vector<NumberedPart> numbered_;
  std::vector<iface::Summary> trail_;
  bool withdrawn_ = false;  // withdraw_current() since the last summary made current
  std::vector<std::pair<std::string, iface::Summary>> autolabelled_;
  bool labels_dirty_ = false;
};

}  // namespace bn::search
