#pragma once
// Evaluating a built view as a user would: through the call-tree backend over its tree, with
// the view's denominator, costs read back as exact rationals.

#include <memory>
#include <string>
#include <vector>

#include "bn/calltree/tree_profile.h"
#include "bn/iface/amount.h"
#include "bn/views/view.h"
#include "recording.h"

namespace bn::test {

using iface::Rational;

class Evaluated {
 public:
  Evaluated(const Recording& r, const views::ViewSpec& spec)
      : view_(views::build_view(r.tree, r.samples, spec)),
        profile_(std::make_unique<calltree::TreeProfile>(view_.tree, view_.denominator)) {}

  const views::View& view() const { return view_; }
  calltree::TreeProfile& profile() { return *profile_; }
  // cum of the call path `path` ("A;B;:RUN"), normalised; 0 when no path is labelled so.
  Rational cum(const std::string& path) { return measure(path, true); }
  Rational base(const std::string& path) { return measure(path, false); }
  Rational total() { return iface::to_rational(profile_->total(), profile_->denominator()); }
  bool header_has(const std::string& text) const {
    for (const std::string& line : view_.header)
      if (line.find(text) != std::string::npos) return true;
    return false;
  }

 private:
  Rational measure(const std::string& path, bool cum) {
    const std::vector<std::string> names = split_frames(path);
    auto s = profile_->method_summary(names.front());
    for (std::size_t i = 1; s && i < names.size(); ++i) s = profile_->extend_bottom(*s, names[i]);
    if (!s) return 0;
    return iface::to_rational(cum ? profile_->cum_of(*s) : profile_->base_of(*s), profile_->denominator());
  }

  views::View view_;
  std::unique_ptr<calltree::TreeProfile> profile_;
};

inline views::ViewSpec thread_view(const std::string& cls, views::Model model = {views::Model::Kind::paper, 1}) {
  views::ViewSpec spec;
  spec.kind = views::ViewKind::thread;
  spec.thread_class = cls;
  spec.model = model;
  return spec;
}

inline views::ViewSpec server_view(views::Model model = {views::Model::Kind::paper, 1}) {
  views::ViewSpec spec;
  spec.kind = views::ViewKind::server;
  spec.model = model;
  return spec;
}

inline views::Model cpus(std::uint32_t n) { return {views::Model::Kind::cpus, n}; }
inline const views::Model kPaper{views::Model::Kind::paper, 1};
inline const views::Model kMeasured{views::Model::Kind::measured, 1};

}  // namespace bn::test
