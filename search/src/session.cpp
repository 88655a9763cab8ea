#include "bn/search/session.h"

#include <string>

#include "bn/base/error.h"
#include "bn/iface/overlap.h"
#include "bn/search/method_names.h"
#include "bn/search/parse.h"

namespace bn::search {

iface::Summary Session::numbered_summary(std::string_view text) const {
  const auto size = [](const NumberedPart& part) {
    return part.listing ? part.listing->size() : part.summaries.size();
  };
  std::size_t count = 0;
  for (const NumberedPart& part : numbered_) count += size(part);
  if (count == 0) throw Error("no numbered summaries yet: run `suggest` or `path` first");
  auto n = static_cast<std::size_t>(parse_whole(text, 0, static_cast<std::int64_t>(count) - 1, "summary number"));
  auto part = numbered_.begin();  // n < count: the part that holds it is reached
  while (n >= size(*part)) n -= size(*part++);
  return part->listing ? part->listing->summary(n) : part->summaries[n];
}

std::optional<iface::Summary> Session::current() const {
  if (trail_.empty() || withdrawn_) return std::nullopt;
  return trail_.back();
}

void Session::make_current(iface::Summary s) {
  withdrawn_ = false;
  if (!trail_.empty() && trail_.back() == s) return;
  trail_.push_back(s);
}

std::vector<std::pair<SavedLabel, std::string>> Session::switched(const std::string& left,
                                                                  std::vector<SavedLabel> left_labels) {
  if (!left_labels.empty()) {
    std::vector<SavedLabel>& kept = kept_[left];  // after any set aside in it
    kept.insert(kept.end(), std::make_move_iterator(left_labels.begin()), std::make_move_iterator(left_labels.end()));
  }
  if (labels_dirty_) dirty_views_[left] = true;
  profile_ = &source_->profile();
  numbered_.clear();
  trail_.clear();
  withdrawn_ = false;
  autolabelled_.clear();
  labels_ = LabelSet();
  measures_.clear();
  labels_dirty_ = false;
  std::vector<std::pair<SavedLabel, std::string>> unresolved;
  const std::string now = view();
  const auto kept = kept_.find(now);
  if (kept == kept_.end()) return unresolved;
  std::vector<SavedLabel> set_aside;
  for (SavedLabel& label : kept->second) {
    const std::vector<std::string_view> calls(label.calls.begin(), label.calls.end());
    if (const std::optional<iface::Summary> s = summary_of_frames(*profile_, calls, aspects_)) {
      labels_.add(label.label, *s);
    } else {
      unresolved.emplace_back(label, why_no_root(*profile_, calls));
      set_aside.push_back(std::move(label));
    }
  }
  if (set_aside.empty())
    kept_.erase(kept);
  else
    kept->second = std::move(set_aside);
  labels_dirty_ = dirty_views_.erase(now) > 0;
  return unresolved;
}

LabelFile Session::label_file() const {
  LabelFile file{view(), {}, saved_labels(*profile_, labels_)};
  const auto kept = kept_.find(file.view);
  const std::vector<SavedLabel> none;
  const std::vector<SavedLabel>& set_aside = kept == kept_.end() ? none : kept->second;
  file.labels.insert(file.labels.end(), set_aside.begin(), set_aside.end());
  file.aspects = aspects_used(*profile_, labels_, set_aside, aspects_);
  return file;
}

std::vector<std::string> Session::dirty_kept_views() const {
  std::vector<std::string> out;
  for (const auto& entry : dirty_views_) out.push_back(entry.first);
  return out;
}

void Session::withdraw_current() { withdrawn_ = !trail_.empty(); }

bool Session::back() {
  if (withdrawn_) {
    withdrawn_ = false;
    return true;
  }
  if (trail_.size() < 2) return false;
  trail_.pop_back();
  return true;
}

}  // namespace bn::search
